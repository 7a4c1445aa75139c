import { DateTime, Schema } from "effect"
import { field } from "../Field.js"
import { PaymentRouting } from "../payments/Payment.js"
import { type ProviderConnection, supports } from "../providers/ProviderConnection.js"
import { PaymentsRouting } from "../tenancy/Organization.js"
import { matches, methodToTake, type PaymentRoutingFacts, type RoutingFacts, type RoutingRule } from "./RoutingRule.js"

/** Why a candidate was passed over, in the dry run's words. */
export const SkipReason = Schema.Literal(
  "rule_disabled",
  "no_match",
  "unknown_provider",
  "excluded",
  "connection_disabled",
  "connection_error",
  "currency_unsupported",
  "method_unsupported",
  "already_a_candidate",
  /** The organization routes payments to its default provider (`payments_routing: "default"`). */
  "rules_not_used"
)
export type SkipReason = typeof SkipReason.Type

/** One rule (or the default provider, `rule_id: null`) as the evaluation saw it. */
export const Candidate = Schema.Struct({
  rule_id: field(Schema.NullOr(Schema.String), "The rule that named this provider, or `null` for the default provider."),
  priority: field(Schema.NullOr(Schema.Int), "That rule's priority, or `null`."),
  provider: field(Schema.String, "The provider connection considered (its `name`)."),
  result: field(
    Schema.Literal("chosen", "fallback", "skipped"),
    "`chosen` (the payment goes there), `fallback` (next in line if it cannot be reached) or `skipped`."
  ),
  reason: field(
    Schema.NullOr(SkipReason),
    "Why it was skipped (`no_match`, `rule_disabled`, `connection_error`, `currency_unsupported`, `rules_not_used`, …), else `null`."
  ),
  /** The connection's circuit is open but its cool-down is over: it takes one trial call. */
  trial: field(Schema.Boolean, "`true` when its circuit is open and this payment would be the trial call that decides whether it closes.")
})
export type Candidate = typeof Candidate.Type

export interface Evaluation {
  /** Every rule, in evaluation order, then the default provider. */
  readonly candidates: ReadonlyArray<Candidate>
  /** The eligible ones, best first: the first is chosen, the rest are fallbacks. */
  readonly eligible: ReadonlyArray<Candidate>
}

const ruleOrder = (a: RoutingRule, b: RoutingRule) => a.priority - b.priority || a.created_at.epochMillis - b.created_at.epochMillis || (a.id < b.id ? -1 : 1)

/** Whether connections of a type can take payments by a method (`Connectors.takes`). */
export type TakesMethod = (type: string, method: string) => boolean

/**
 * Whether a connection can take the payment now, or why not; `trial` when only as a trial call.
 * `takes` says which methods each connection type takes (a PayPal connection never gets a card).
 */
export const eligibility = (
  connection: ProviderConnection | undefined,
  facts: PaymentRoutingFacts,
  excluded: ReadonlyArray<string>,
  now: DateTime.Utc,
  takes?: TakesMethod
): { readonly reason: SkipReason | null; readonly trial: boolean } => {
  const skip = (reason: SkipReason) => ({ reason, trial: false })
  if (connection === undefined) return skip("unknown_provider")
  if (excluded.includes(connection.name)) return skip("excluded")
  if (connection.status === "disabled") return skip("connection_disabled")
  const coolingDown = connection.status === "error" &&
    (connection.circuit_retry_at === null || DateTime.lessThan(now, connection.circuit_retry_at))
  if (coolingDown) return skip("connection_error")
  if (!supports(connection, facts.currency.toUpperCase(), facts.method)) {
    return skip(
      connection.supported_currencies !== null && !connection.supported_currencies.includes(facts.currency.toUpperCase())
        ? "currency_unsupported"
        : "method_unsupported"
    )
  }
  if (takes !== undefined && !takes(connection.type, methodToTake(facts))) return skip("method_unsupported")
  return { reason: null, trial: connection.status === "error" }
}

/**
 * Where routing sends a payment, and why: enabled rules from the lowest priority up (ties by age),
 * the first matching rule whose connection is eligible (active or due a trial call, not excluded,
 * supporting the currency and method) wins; the default provider comes last. Pure: the same facts
 * always give the same answer, which is what the dry run shows and what payments do.
 */
export const evaluateRouting = (input: {
  readonly rules: ReadonlyArray<RoutingRule>
  readonly connections: ReadonlyArray<ProviderConnection>
  readonly defaultProvider: string | null
  readonly facts: RoutingFacts
  readonly excluded: ReadonlyArray<string>
  readonly now: DateTime.Utc
  /** `false` in default routing: every rule is listed, passed over as `rules_not_used`. */
  readonly rulesUsed?: boolean
  readonly takes?: TakesMethod
}): Evaluation => {
  const byName = new Map(input.connections.map((connection) => [connection.name, connection]))
  const candidates: Array<Candidate> = []
  const taken = new Set<string>()
  const consider = (rule: RoutingRule | null, provider: string, ruleSkip: SkipReason | null) => {
    const base = { rule_id: rule?.id ?? null, priority: rule?.priority ?? null, provider }
    if (ruleSkip !== null) return candidates.push({ ...base, result: "skipped", reason: ruleSkip, trial: false })
    if (taken.has(provider)) return candidates.push({ ...base, result: "skipped", reason: "already_a_candidate", trial: false })
    const { reason, trial } = eligibility(byName.get(provider), input.facts, input.excluded, input.now, input.takes)
    if (reason !== null) return candidates.push({ ...base, result: "skipped", reason, trial: false })
    taken.add(provider)
    return candidates.push({ ...base, result: taken.size === 1 ? "chosen" : "fallback", reason: null, trial })
  }
  for (const rule of [...input.rules].sort(ruleOrder)) {
    consider(
      rule,
      rule.action.provider,
      input.rulesUsed === false
        ? "rules_not_used"
        : !rule.enabled
        ? "rule_disabled"
        : !matches(rule.conditions, input.facts)
        ? "no_match"
        : null
    )
  }
  if (input.defaultProvider !== null) consider(null, input.defaultProvider, null)
  return { candidates, eligible: candidates.filter((candidate) => candidate.result !== "skipped") }
}

/** What the dry run answers. */
export const RoutingDecision = Schema.Struct({
  object: field(Schema.Literal("routing_evaluation"), "Always `routing_evaluation`."),
  /**
   * The `payments_routing` the answer assumed: the organization's current one for this mode, unless
   * the request asked about the other.
   */
  mode: field(PaymentsRouting, "The `payments_routing` the answer assumed: the organization's current one, unless the request asked about the other."),
  /** How a payment like this gets its provider, as the payment's own `routing` would say; `null` when none can take it. */
  routing: field(Schema.NullOr(PaymentRouting), "How a payment like this gets its provider, as its own `routing` would say; `null` when none can take it."),
  /** The card as routing saw it: the request's details, else what its token says (the sandbox's test tokens). */
  payment_method: field(
    Schema.Struct({
      type: field(Schema.String, "The method's type."),
      brand: field(Schema.NullOr(Schema.String), "The card brand, as sent or as its token says, or `null`."),
      country: field(Schema.NullOr(Schema.String), "The card's country, as sent or as its token says, or `null`.")
    }),
    "The payment method as routing saw it: the request's details, else what its token says."
  ),
  /** The provider a payment like this goes to now; `null` when none can take it. */
  provider: field(Schema.NullOr(Schema.String), "The provider a payment like this goes to now; `null` when none can take it."),
  /** The rule that chose it; `null` when it is the default provider (or none). */
  rule_id: field(Schema.NullOr(Schema.String), "The rule that chose it; `null` for the default provider (or none)."),
  /** Where it goes if that provider cannot be reached, in order (same connection type only). */
  fallbacks: field(Schema.Array(Schema.String), "Where it goes if that provider cannot be reached, in order."),
  candidates: field(Schema.Array(Candidate), "Every rule and the default provider, in the order they were tried, with what each came to.")
}).annotations({ identifier: "RoutingEvaluation" })
export type RoutingDecision = typeof RoutingDecision.Type
