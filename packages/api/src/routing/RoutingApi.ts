import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CardToken,
  CreatePayment,
  CreateRoutingRule,
  field,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  InvalidCursor,
  ListOf,
  optionalField,
  PaymentsRouting,
  ResourceLimitExceeded,
  RoutingDecision,
  RoutingRule,
  RoutingRuleInvalid,
  RoutingRuleNotFound,
  Text,
  UpdateRoutingRule
} from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const RoutingRuleList = ListOf(RoutingRule).annotations({ identifier: "RoutingRuleList" })

export const DeletedRoutingRule = Schema.Struct({
  object: field(Schema.Literal("routing_rule"), "Always `routing_rule`."),
  id: field(Schema.String, "The id of the rule that was deleted."),
  deleted: field(Schema.Literal(true), "Always `true`.")
}).annotations({ identifier: "DeletedRoutingRule" })

/**
 * The dry run's question: the exact body of `POST /v1/payments` (a `provider` forces, as it would;
 * routing looks at amount, currency and the card, the other fields are checked and left alone), any
 * method type (rules on other methods can be tried), `mode` to ask about the `payments_routing` the
 * organization does not use now, and providers to leave out.
 */
export const EvaluateRoutingBody = Schema.Struct({
  ...CreatePayment.fields,
  payment_method: field(
    Schema.Struct({
      type: field(Text.pipe(Schema.minLength(1), Schema.maxLength(50)), "The method's type (`card`, `paypal`, …); any type may be tried."),
      token: optionalField(CardToken, "The card token, whose card country routing may use (the sandbox's test tokens carry one)."),
      brand: optionalField(Text.pipe(Schema.maxLength(50)), "The card brand, if you know it (`visa`)."),
      last4: optionalField(Schema.String.pipe(Schema.pattern(/^\d{4}$/)), "The card's last four digits, if you know them."),
      country: optionalField(
        Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)),
        "The card's country (ISO 3166-1 alpha-2), which `country` conditions match."
      )
    }).annotations({ parseOptions: { onExcessProperty: "error" } }),
    "The payment method, as a payment would send it."
  ),
  mode: optionalField(PaymentsRouting, "Ask about this `payments_routing` instead of the organization's current one."),
  exclude: optionalField(
    Schema.Array(Identifier).pipe(Schema.maxItems(50)),
    "Provider names to leave out, as a checkout reroute leaves out the one that failed."
  )
}).annotations({ identifier: "EvaluateRouting", parseOptions: { onExcessProperty: "error" } })

export class RoutingApi extends HttpApiGroup.make("routing")
  .add(
    HttpApiEndpoint.post("create", "/routing-rules")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateRoutingRule)
      .addSuccess(RoutingRule, { status: 201 })
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(RoutingRuleInvalid))
      .addError(apiErrorOf(ResourceLimitExceeded))
      .addError(apiErrorOf(IdempotencyKeyReused))
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
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List routing rules in the order they are evaluated")
      .annotate(OpenApi.Description, "The rules of this key's mode, by `priority` (lowest first), then age: the order they are tried.")
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/routing-rules/:id")
      .setPath(ById)
      .addSuccess(RoutingRule)
      .addError(apiErrorOf(RoutingRuleNotFound))
      .annotate(OpenApi.Summary, "Retrieve a routing rule")
      .annotate(OpenApi.Description, "One rule: its priority, conditions, the provider it chooses and whether it is enabled.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/routing-rules/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateRoutingRule)
      .addSuccess(RoutingRule)
      .addError(apiErrorOf(RoutingRuleNotFound))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(RoutingRuleInvalid))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Change a routing rule")
      .annotate(
        OpenApi.Description,
        "Changes only the fields sent; `conditions` sent replace the old ones whole. `enabled: false` keeps the rule " +
          "without using it. Try the result with `POST /v1/routing-rules/evaluate`."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/routing-rules/:id")
      .setPath(ById)
      .addSuccess(DeletedRoutingRule)
      .addError(apiErrorOf(RoutingRuleNotFound))
      .annotate(OpenApi.Summary, "Delete a routing rule")
      .annotate(OpenApi.Description, "Deletes the rule; payments it routed keep their `routing.rule_id`.")
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
  .annotate(
    OpenApi.Description,
    "Routing rules choose the provider of a payment, a subscription or a checkout session that does not force " +
      "one: the first enabled rule, by `priority`, whose conditions (currency, card country, method, amount range) " +
      "match and whose provider can take the payment wins; else the default provider. Payments follow rules when " +
      "the organization's `payments_routing` is `rules`, and then fail over to the next candidate when a provider " +
      "is down. See routing and failover at /docs/guides/routing."
  )
{}
