import { Either, Schema } from "effect"
import { Amount } from "../domain/Money.js"
import { RequestBody } from "../domain/RequestBody.js"
import { Text } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { ConnectionName } from "../providers/ProviderConnection.js"

/** What a payment must be for a rule to match: every condition given holds. */
export const RuleConditions = Schema.Struct({
  currency: Schema.optional(Schema.Array(Schema.String)),
  country: Schema.optional(Schema.Array(Schema.String)),
  method: Schema.optional(Schema.Array(Schema.String)),
  amount: Schema.optional(Schema.Struct({ gte: Schema.optional(Schema.Int), lte: Schema.optional(Schema.Int) }))
}).annotations({ identifier: "RoutingRuleConditions" })
export type RuleConditions = typeof RuleConditions.Type

export const RuleAction = Schema.Struct({ provider: Schema.String }).annotations({ identifier: "RoutingRuleAction" })

/** "Payments like this go to that provider", evaluated from the lowest `priority` up. */
export class RoutingRule extends Schema.Class<RoutingRule>("RoutingRule")({
  object: Schema.Literal("routing_rule"),
  id: Schema.String,
  priority: Schema.Int,
  conditions: RuleConditions,
  action: RuleAction,
  enabled: Schema.Boolean,
  livemode: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp
}) {}

/**
 * The request's conditions as sent: any JSON object. Which keys and values a rule takes is checked
 * by `validateConditions`, so that a wrong key or value is a 422 naming it, not a 400.
 */
const AnyConditions = Schema.Record({ key: Text, value: Schema.Unknown })

const Priority = Schema.Int.pipe(Schema.between(0, 1_000_000))

export const CreateRoutingRule = RequestBody("CreateRoutingRule", {
  priority: Priority,
  conditions: AnyConditions,
  action: Schema.Struct({ provider: ConnectionName }).annotations({ parseOptions: { onExcessProperty: "error" } }),
  enabled: Schema.optional(Schema.Boolean)
})
export type CreateRoutingRule = typeof CreateRoutingRule.Type

export const UpdateRoutingRule = RequestBody("UpdateRoutingRule", {
  priority: Schema.optional(Priority),
  conditions: Schema.optional(AnyConditions),
  action: Schema.optional(
    Schema.Struct({ provider: ConnectionName }).annotations({ parseOptions: { onExcessProperty: "error" } })
  ),
  enabled: Schema.optional(Schema.Boolean)
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

/** Whether every condition the rule has holds for the payment (codes compared without case). */
export const matches = (conditions: RuleConditions, facts: RoutingFacts): boolean =>
  (conditions.currency === undefined || conditions.currency.includes(facts.currency.toUpperCase())) &&
  (conditions.country === undefined || (facts.country !== null && conditions.country.includes(facts.country.toUpperCase()))) &&
  (conditions.method === undefined || conditions.method.includes(facts.method.toLowerCase())) &&
  (conditions.amount?.gte === undefined || facts.amount >= conditions.amount.gte) &&
  (conditions.amount?.lte === undefined || facts.amount <= conditions.amount.lte)
