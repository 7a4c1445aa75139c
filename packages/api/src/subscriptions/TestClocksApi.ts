import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { AdvanceTestClock, CreateTestClock, TestClock } from "@orchestrator/core/subscriptions/TestClock"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { BillingRequestInvalid, TestClockBusy, TestClockNotFound } from "./BillingErrors.js"

export const TestClockList = ListOf(TestClock).annotations({ identifier: "TestClockList" })

export class TestClocksApi extends HttpApiGroup.make("testClocks")
  .add(
    HttpApiEndpoint.post("create", "/test_helpers/test_clocks")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateTestClock)
      .addSuccess(TestClock, { status: 201 })
      .addError(BillingRequestInvalid)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Create a test clock (test mode only)")
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/test_helpers/test_clocks/:id")
      .setPath(ById)
      .addSuccess(TestClock)
      .addError(TestClockNotFound)
      .annotate(OpenApi.Summary, "Retrieve a test clock")
  )
  .add(
    HttpApiEndpoint.get("list", "/test_helpers/test_clocks")
      .setUrlParams(ListQuery({}))
      .addSuccess(TestClockList)
      .annotate(OpenApi.Summary, "List test clocks, newest first")
  )
  .add(
    HttpApiEndpoint.del("delete", "/test_helpers/test_clocks/:id")
      .setPath(ById)
      .addSuccess(TestClock)
      .addError(TestClockNotFound)
      .annotate(OpenApi.Summary, "Delete a test clock; its customers' subscriptions stop being billed")
  )
  .add(
    HttpApiEndpoint.post("advance", "/test_helpers/test_clocks/:id/advance")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(AdvanceTestClock)
      .addSuccess(TestClock)
      .addError(TestClockNotFound)
      .addError(BillingRequestInvalid)
      .addError(TestClockBusy)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(
        OpenApi.Summary,
        "Move a test clock forward; answers once every renewal, retry, trial end and expiry due by then has run"
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Test clocks")
{}
