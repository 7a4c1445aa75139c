import { Either, Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { Amount } from "../Money.js"
import { VAULT_CARD_METHOD } from "../payments/PaymentMethodTypes.js"
import { ConnectionName } from "../providers/ProviderConnection.js"
import { RequestBody } from "../RequestBody.js"
import { Text } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

/** What a payment must be for a rule to match: every condition given holds. */
export const RuleConditions = Schema.Struct({
  currency: optionalField(Schema.Array(Schema.String), "Matches payments in one of these currencies (ISO 4217)."),
  country: optionalField(Schema.Array(Schema.String), "Matches cards from one of these countries (ISO 3166-1 alpha-2)."),
  method: optionalField(Schema.Array(Schema.String), "Matches one of these payment methods (`card`, `paypal`, …)."),
  amount: optionalField(
    Schema.Struct({
      gte: optionalField(Schema.Int, "At least this amount, in minor units."),
      lte: optionalField(Schema.Int, "At most this amount, in minor units.")
    }),
    "Matches amounts within `gte` and `lte`, inclusive, in minor units."
  )
}).annotations({ identifier: "RoutingRuleConditions" })
export type RuleConditions = typeof RuleConditions.Type

export const RuleAction = Schema.Struct({
  provider: field(Schema.String, "The provider connection (its `name`) that matching payments go to.")
}).annotations({ identifier: "RoutingRuleAction" })

/** "Payments like this go to that provider", evaluated from the lowest `priority` up. */
export class RoutingRule extends Schema.Class<RoutingRule>("RoutingRule")({
  object: field(Schema.Literal("routing_rule"), "Always `routing_rule`."),
  id: field(Schema.String, "The rule's id (`rule_…`)."),
  priority: field(Schema.Int, "Rules are tried from the lowest priority up (ties: oldest first)."),
  conditions: field(RuleConditions, "What a payment must be for the rule to match; every condition given must hold, `{}` matches all."),
  action: field(RuleAction, "What the rule does when it matches."),
  enabled: field(Schema.Boolean, "`false` keeps the rule without using it."),
  livemode: field(Schema.Boolean, "`true` for live mode, `false` for test mode."),
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC).")
}) {}

/**
 * The request's conditions as sent: any JSON object. Which keys and values a rule takes is checked
 * by `validateConditions`, so that a wrong key or value is a 422 naming it, not a 400.
 */
const AnyConditions = Schema.Record({ key: Text, value: Schema.Unknown })

const Priority = Schema.Int.pipe(Schema.between(0, 1_000_000))

export const CreateRoutingRule = RequestBody("CreateRoutingRule", {
  priority: field(Priority, "0 to 1 000 000; lower is tried first."),
  conditions: field(
    AnyConditions,
    "Any of `currency`, `country`, `method` (lists of codes) and `amount` (`{\"gte\": …, \"lte\": …}` in minor units); `{}` matches every payment."
  ),
  action: field(
    Schema.Struct({ provider: field(ConnectionName, "The provider connection (its `name`) that matching payments go to.") })
      .annotations({ parseOptions: { onExcessProperty: "error" } }),
    "What the rule does when it matches: `{\"provider\": \"sandbox_b\"}`."
  ),
  enabled: optionalField(Schema.Boolean, "`false` to keep the rule without using it; default `true`.")
})
export type CreateRoutingRule = typeof CreateRoutingRule.Type

export const UpdateRoutingRule = RequestBody("UpdateRoutingRule", {
  priority: optionalField(Priority, "0 to 1 000 000; lower is tried first."),
  conditions: optionalField(AnyConditions, "New conditions; they replace the old ones whole."),
  action: optionalField(
    Schema.Struct({ provider: field(ConnectionName, "The provider connection (its `name`) that matching payments go to.") })
      .annotations({ parseOptions: { onExcessProperty: "error" } }),
    "A new action: `{\"provider\": \"sandbox_b\"}`."
  ),
  enabled: optionalField(Schema.Boolean, "`false` to keep the rule without using it.")
})
export type UpdateRoutingRule = typeof UpdateRoutingRule.Type

/** A rule that cannot be what it says: `param` names the offending part. */
export interface RuleProblem {
  readonly param: string
  readonly reason: string
}

const KEYS = ["currency", "country", "method", "amount"] as const

const codes = (key: string, value: unknown, normalize: (code: string) => string): Either.Either<ReadonlyArray<string>, RuleProblem> => {
  if (!Array.isArray(value)) return Either.left({ param: `conditions.${key}`, reason: "must be a list" })
  if (value.length === 0) return Either.left({ param: `conditions.${key}`, reason: "must not be empty" })
  if (value.length > 200) return Either.left({ param: `conditions.${key}`, reason: "can have at most 200 entries" })
  const bad = value.findIndex((entry) => typeof entry !== "string" || !/^[A-Za-z0-9_]{1,50}$/.test(entry))
  if (bad !== -1) return Either.left({ param: `conditions.${key}.${bad}`, reason: "must be a code of letters, digits or '_'" })
  return Either.right([...new Set((value as Array<string>).map(normalize))])
}

const bound = (key: "gte" | "lte", value: unknown): Either.Either<number | undefined, RuleProblem> =>
  value === undefined
    ? Either.right(undefined)
    : typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? Either.right(value)
    : Either.left({ param: `conditions.amount.${key}`, reason: "must be a non-negative integer in minor units" })

/**
 * The conditions of a rule, checked: only `currency`, `country`, `method` (non-empty lists of codes,
 * compared without case) and `amount` (`gte` and/or `lte`, integers in minor units, `gte` ≤ `lte`).
 */
export const validateConditions = (raw: Readonly<Record<string, unknown>>): Either.Either<RuleConditions, RuleProblem> =>
  Either.gen(function*() {
    const unknown = Object.keys(raw).find((key) => !(KEYS as ReadonlyArray<string>).includes(key))
    if (unknown !== undefined) {
      return yield* Either.left({
        param: `conditions.${unknown}`,
        reason: "is not a condition; use currency, country, method or amount"
      })
    }
    const conditions: { -readonly [K in keyof RuleConditions]: RuleConditions[K] } = {}
    if (raw.currency !== undefined) conditions.currency = yield* codes("currency", raw.currency, (code) => code.toUpperCase())
    if (raw.country !== undefined) conditions.country = yield* codes("country", raw.country, (code) => code.toUpperCase())
    if (raw.method !== undefined) conditions.method = yield* codes("method", raw.method, (code) => code.toLowerCase())
    if (raw.amount !== undefined) {
      const amount = raw.amount
      if (typeof amount !== "object" || amount === null || Array.isArray(amount)) {
        return yield* Either.left({ param: "conditions.amount", reason: "must be an object with gte and/or lte" })
      }
      const extra = Object.keys(amount).find((key) => key !== "gte" && key !== "lte")
      if (extra !== undefined) {
        return yield* Either.left({ param: `conditions.amount.${extra}`, reason: "is not a bound; use gte or lte" })
      }
      const gte = yield* bound("gte", (amount as Record<string, unknown>).gte)
      const lte = yield* bound("lte", (amount as Record<string, unknown>).lte)
      if (gte === undefined && lte === undefined) {
        return yield* Either.left({ param: "conditions.amount", reason: "needs gte or lte" })
      }
      if (gte !== undefined && lte !== undefined && gte > lte) {
        return yield* Either.left({ param: "conditions.amount", reason: "gte is larger than lte" })
      }
      conditions.amount = { ...(gte === undefined ? {} : { gte }), ...(lte === undefined ? {} : { lte }) }
    }
    return conditions
  })

/** What a rule, or the dry run, is asked about: the facts of a payment routing looks at. */
export const RoutingFacts = Schema.Struct({
  amount: Amount,
  currency: Schema.String,
  method: Schema.String,
  country: Schema.NullOr(Schema.String)
})
export type RoutingFacts = typeof RoutingFacts.Type

/** A payment's facts as the core routes them: a card from the service's vault goes only where raw cards go. */
export type PaymentRoutingFacts = RoutingFacts & { readonly vaulted?: boolean }

/** The method a connection type must take for these facts (`VAULT_CARD_METHOD` for a vaulted card). */
export const methodToTake = (facts: PaymentRoutingFacts): string => facts.vaulted === true ? VAULT_CARD_METHOD : facts.method.toLowerCase()

/** Whether every condition the rule has holds for the payment (codes compared without case). */
export const matches = (conditions: RuleConditions, facts: RoutingFacts): boolean =>
  (conditions.currency === undefined || conditions.currency.includes(facts.currency.toUpperCase())) &&
  (conditions.country === undefined || (facts.country !== null && conditions.country.includes(facts.country.toUpperCase()))) &&
  (conditions.method === undefined || conditions.method.includes(facts.method.toLowerCase())) &&
  (conditions.amount?.gte === undefined || facts.amount >= conditions.amount.gte) &&
  (conditions.amount?.lte === undefined || facts.amount <= conditions.amount.lte)
