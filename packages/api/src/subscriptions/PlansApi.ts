import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CreatePlan, IdempotencyKeyInUse, IdempotencyKeyReused, InvalidCursor, ListOf, Plan, PlanNotFound } from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const PlanList = ListOf(Plan).annotations({ identifier: "PlanList" })

export class PlansApi extends HttpApiGroup.make("plans")
  .add(
    HttpApiEndpoint.post("create", "/plans")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreatePlan)
      .addSuccess(Plan, { status: 201 })
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create a plan: an amount billed every `interval_count` intervals")
      .annotate(
        OpenApi.Description,
        "A plan is a price: `amount` in minor units of `currency`, billed every `interval_count` `interval`s " +
          "(`day`, `week`, `month`, `year`), optionally after `trial_days` free days. Plans do not change once made; " +
          "make a new one and move subscriptions to it."
      )
  )
  .add(
    retrieveById("/plans/:id", Plan, PlanNotFound, "Retrieve a plan")
      .annotate(OpenApi.Description, "One plan by its id (`plan_…`).")
  )
  .add(
    HttpApiEndpoint.get("list", "/plans")
      .setUrlParams(ListQuery({}))
      .addSuccess(PlanList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List plans, newest first")
      .annotate(OpenApi.Description, "The plans of this key's mode, newest first.")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Plans")
  .annotate(
    OpenApi.Description,
    "A plan says what a subscription costs and how often it is billed. See /docs/guides/subscriptions."
  )
{}
