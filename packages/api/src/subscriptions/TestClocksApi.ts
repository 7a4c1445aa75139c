import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AdvanceTestClock,
  BillingRequestInvalid,
  CreateTestClock,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  InvalidCursor,
  ListOf,
  TestClock,
  TestClockBusy,
  TestClockNotFound
} from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const TestClockList = ListOf(TestClock).annotations({ identifier: "TestClockList" })

export class TestClocksApi extends HttpApiGroup.make("testClocks")
  .add(
    HttpApiEndpoint.post("create", "/test_helpers/test_clocks")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateTestClock)
      .addSuccess(TestClock, { status: 201 })
      .addError(apiErrorOf(BillingRequestInvalid))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create a test clock (test mode only)")
      .annotate(
        OpenApi.Description,
        "A clock frozen at `frozen_time`. Customers created on it, and their subscriptions, invoices and payments, " +
          "live on its time instead of the real one. A live key answers 422."
      )
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/test_helpers/test_clocks/:id")
      .setPath(ById)
      .addSuccess(TestClock)
      .addError(apiErrorOf(TestClockNotFound))
      .annotate(OpenApi.Summary, "Retrieve a test clock")
      .annotate(OpenApi.Description, "The clock's time and status (`advancing` while an advance runs, then `ready`).")
  )
  .add(
    HttpApiEndpoint.get("list", "/test_helpers/test_clocks")
      .setUrlParams(ListQuery({}))
      .addSuccess(TestClockList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List test clocks, newest first")
      .annotate(OpenApi.Description, "The test clocks of this organization, newest first.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/test_helpers/test_clocks/:id")
      .setPath(ById)
      .addSuccess(TestClock)
      .addError(apiErrorOf(TestClockNotFound))
      .annotate(OpenApi.Summary, "Delete a test clock; its customers' subscriptions stop being billed")
      .annotate(OpenApi.Description, "Deletes the clock; what happened on it stays readable, and nothing more is billed on its time.")
  )
  .add(
    HttpApiEndpoint.post("advance", "/test_helpers/test_clocks/:id/advance")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(AdvanceTestClock)
      .addSuccess(TestClock)
      .addError(apiErrorOf(TestClockNotFound))
      .addError(apiErrorOf(BillingRequestInvalid))
      .addError(apiErrorOf(TestClockBusy))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(
        OpenApi.Summary,
        "Move a test clock forward; answers once every renewal, retry, trial end and expiry due by then has run"
      )
      .annotate(
        OpenApi.Description,
        "Sets the clock to `frozen_time` (later than now on the clock) and runs, in order, everything due by then: " +
          "renewals, dunning retries, trial ends and expiries, with their events and webhooks. A clock already " +
          "advancing answers 409."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Test clocks")
  .annotate(
    OpenApi.Description,
    "Test clocks (test mode only) let you watch a year of billing in seconds: create a clock, create a customer " +
      "on it, subscribe the customer, then advance the clock. See /docs/guides/subscriptions."
  )
{}
