import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier, Text } from "@orchestrator/core/domain/Text"
import { CardToken, CreatePayment } from "@orchestrator/core/payments/Payment"
import { RoutingDecision } from "@orchestrator/core/routing/RoutingEvaluation"
import { CreateRoutingRule, RoutingRule, UpdateRoutingRule } from "@orchestrator/core/routing/RoutingRule"
import { PaymentsRouting } from "@orchestrator/core/tenancy/Organization"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { ResourceLimitExceeded } from "../ResourceLimitErrors.js"
import { RoutingRuleInvalid, RoutingRuleNotFound } from "./RoutingErrors.js"

export const RoutingRuleList = ListOf(RoutingRule).annotations({ identifier: "RoutingRuleList" })

export const DeletedRoutingRule = Schema.Struct({
  object: Schema.Literal("routing_rule"),
  id: Schema.String,
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedRoutingRule" })

/**
 * The dry run's question: the exact body of `POST /v1/payments` (a `provider` forces, as it would;
 * routing looks at amount, currency and the card, the other fields are checked and left alone), any
 * method type (rules on other methods can be tried), `mode` to ask about the `payments_routing` the
 * organization does not use now, and providers to leave out.
 */
export const EvaluateRoutingBody = Schema.Struct({
  ...CreatePayment.fields,
  payment_method: Schema.Struct({
    type: Text.pipe(Schema.minLength(1), Schema.maxLength(50)),
    token: Schema.optional(CardToken),
    brand: Schema.optional(Text.pipe(Schema.maxLength(50))),
    last4: Schema.optional(Schema.String.pipe(Schema.pattern(/^\d{4}$/))),
    country: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)))
  }).annotations({ parseOptions: { onExcessProperty: "error" } }),
  mode: Schema.optional(PaymentsRouting),
  exclude: Schema.optional(Schema.Array(Identifier).pipe(Schema.maxItems(50)))
}).annotations({ identifier: "EvaluateRouting", parseOptions: { onExcessProperty: "error" } })

export class RoutingApi extends HttpApiGroup.make("routing")
  .add(
    HttpApiEndpoint.post("create", "/routing-rules")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateRoutingRule)
      .addSuccess(RoutingRule, { status: 201 })
      .addError(IdempotencyKeyInUse)
      .addError(RoutingRuleInvalid)
      .addError(ResourceLimitExceeded)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Create a routing rule")
      .annotate(
        OpenApi.Description,
        "Rules are evaluated from the lowest `priority` up (ties by age); the first enabled rule that matches, " +
          "whose provider can take the payment, wins. `conditions` takes only `currency`, `country`, `method` " +
          "(lists of codes) and `amount` (`gte`, `lte` in minor units); `{}` matches every payment. " +
          "An organization keeps at most 200 rules per mode."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/routing-rules")
      .setUrlParams(ListQuery({}))
      .addSuccess(RoutingRuleList)
      .annotate(OpenApi.Summary, "List routing rules in the order they are evaluated")
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/routing-rules/:id")
      .setPath(ById)
      .addSuccess(RoutingRule)
      .addError(RoutingRuleNotFound)
      .annotate(OpenApi.Summary, "Retrieve a routing rule")
  )
  .add(
    HttpApiEndpoint.patch("update", "/routing-rules/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateRoutingRule)
      .addSuccess(RoutingRule)
      .addError(RoutingRuleNotFound)
      .addError(IdempotencyKeyInUse)
      .addError(RoutingRuleInvalid)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Change a routing rule")
  )
  .add(
    HttpApiEndpoint.del("delete", "/routing-rules/:id")
      .setPath(ById)
      .addSuccess(DeletedRoutingRule)
      .addError(RoutingRuleNotFound)
      .annotate(OpenApi.Summary, "Delete a routing rule")
  )
  .add(
    HttpApiEndpoint.post("evaluate", "/routing-rules/evaluate")
      .setPayload(EvaluateRoutingBody)
      .addSuccess(RoutingDecision)
      .annotate(OpenApi.Summary, "Dry run: where would a payment go, and why")
      .annotate(
        OpenApi.Description,
        "Evaluates the rules and connections as they are now, as a payment would, without making one: the " +
          "provider chosen, the rule that chose it, the fallbacks, and every candidate passed over with the reason. " +
          "Takes the exact body of `POST /v1/payments`: the card's country is `payment_method.country`, else what " +
          "its token says (the sandbox's test tokens), as for a payment; a `provider` forces, as it does there. " +
          "Answers for the organization's current `payments_routing` of this mode and says which (`mode`); send " +
          "`mode` to ask about the other. In `default` mode every rule is listed as `rules_not_used`."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Routing rules")
{}
