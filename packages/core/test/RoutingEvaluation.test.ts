import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import * as fc from "fast-check"
import { ProviderConnection } from "../src/domain/providers/ProviderConnection.js"
import { evaluateRouting } from "../src/domain/routing/RoutingEvaluation.js"
import { RoutingRule, type RuleConditions } from "../src/domain/routing/RoutingRule.js"

const NOW = DateTime.unsafeMake(Date.UTC(2026, 10, 22, 12))
const names = ["a", "b", "c", "d"] as const
const currencies = ["EUR", "USD", "JPY"] as const
const countries = ["US", "FR", "DE"] as const
const methods = ["card", "sepa"] as const

const subset = <A>(values: ReadonlyArray<A>) => fc.subarray([...values], { minLength: 1 })

const connection = (name: string) =>
  fc.record({
    status: fc.constantFrom("active", "active", "disabled", "error"),
    retryInPast: fc.boolean(),
    currencies: fc.option(subset(currencies), { nil: null }),
    methods: fc.option(subset(methods), { nil: null })
  }).map(({ currencies, methods, retryInPast, status }) =>
    new ProviderConnection({
      object: "provider_connection",
      id: `pcn_${name}`,
      name,
      type: "sandbox",
      status: status as "active" | "disabled" | "error",
      last_error: status === "error" ? "down" : null,
      supported_currencies: currencies,
      supported_methods: methods,
      settings: {},
      base_url: null,
      consecutive_failures: status === "error" ? 5 : 0,
      circuit_retry_at: status === "error" ? DateTime.add(NOW, { seconds: retryInPast ? -1 : 30 }) : null,
      livemode: false,
      created_at: NOW,
      updated_at: NOW
    })
  )

const conditions: fc.Arbitrary<RuleConditions> = fc.record({
  currency: fc.option(subset(currencies), { nil: undefined }),
  country: fc.option(subset(countries), { nil: undefined }),
  method: fc.option(subset(methods), { nil: undefined }),
  amount: fc.option(
    fc.tuple(fc.option(fc.integer({ min: 0, max: 1500 }), { nil: undefined }), fc.integer({ min: 0, max: 1500 }))
      .map(([gte, width]) => (gte === undefined ? { lte: width } : { gte, lte: gte + width })),
    { nil: undefined }
  )
}, { requiredKeys: [] }).map((raw) => Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)))

const rule = (index: number) =>
  fc.record({
    priority: fc.integer({ min: 0, max: 5 }),
    age: fc.integer({ min: 0, max: 10 }),
    enabled: fc.boolean(),
    provider: fc.constantFrom(...names, "gone"),
    conditions
  }).map(({ age, conditions, enabled, priority, provider }) =>
    new RoutingRule({
      object: "routing_rule",
      id: `rule_${index}`,
      priority,
      conditions,
      action: { provider },
      enabled,
      livemode: false,
      created_at: DateTime.add(NOW, { seconds: age }),
      updated_at: NOW
    })
  )

const scenario = fc.record({
  connections: fc.subarray([...names]).chain((present) => fc.tuple(...present.map(connection))),
  rules: fc.integer({ min: 0, max: 6 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => rule(i)))),
  defaultProvider: fc.option(fc.constantFrom(...names), { nil: null }),
  excluded: fc.subarray([...names]),
  facts: fc.record({
    amount: fc.integer({ min: 1, max: 2000 }),
    currency: fc.constantFrom(...currencies, "eur"),
    method: fc.constantFrom(...methods),
    country: fc.option(fc.constantFrom(...countries, "fr"), { nil: null })
  })
})

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never

/** The rules as the API documents them, written here again without the service's code. */
const expectedProvider = ({ connections, defaultProvider, excluded, facts, rules }: Scenario): string | null => {
  const usable = (name: string) => {
    const found = connections.find((candidate) => candidate.name === name)
    if (found === undefined || (excluded as ReadonlyArray<string>).includes(name) || found.status === "disabled") return false
    if (found.status === "error" && DateTime.lessThan(NOW, found.circuit_retry_at!)) return false
    const currency = facts.currency.toUpperCase()
    return (found.supported_currencies === null || found.supported_currencies.includes(currency)) &&
      (found.supported_methods === null || found.supported_methods.includes(facts.method))
  }
  const holds = (c: RuleConditions) =>
    (c.currency === undefined || c.currency.includes(facts.currency.toUpperCase())) &&
    (c.country === undefined || (facts.country !== null && c.country.includes(facts.country.toUpperCase()))) &&
    (c.method === undefined || c.method.includes(facts.method)) &&
    (c.amount?.gte === undefined || facts.amount >= c.amount.gte) &&
    (c.amount?.lte === undefined || facts.amount <= c.amount.lte)
  const ordered = [...rules].sort((x, y) => x.priority - y.priority || x.created_at.epochMillis - y.created_at.epochMillis || x.id.localeCompare(y.id))
  const winner = ordered.find((candidate) => candidate.enabled && holds(candidate.conditions) && usable(candidate.action.provider))
  if (winner !== undefined) return winner.action.provider
  return defaultProvider !== null && usable(defaultProvider) ? defaultProvider : null
}

describe("routing evaluation", () => {
  it("chooses the provider of the first enabled matching rule whose connection can take the payment, else the default", () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const evaluation = evaluateRouting({ ...input, now: NOW })
        expect(evaluation.eligible[0]?.provider ?? null).toBe(expectedProvider(input))
      }),
      { numRuns: 2000 }
    )
  })

  it("never offers an excluded, disabled or cooling-down connection, nor the same one twice", () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const evaluation = evaluateRouting({ ...input, now: NOW })
        const offered = evaluation.eligible.map((candidate) => candidate.provider)
        expect(new Set(offered).size).toBe(offered.length)
        for (const name of offered) {
          const found = input.connections.find((candidate) => candidate.name === name)!
          expect(input.excluded).not.toContain(name)
          expect(found.status).not.toBe("disabled")
          if (found.status === "error") expect(DateTime.lessThan(NOW, found.circuit_retry_at!)).toBe(false)
        }
        // Every rule and the default are accounted for, with a reason when passed over.
        expect(evaluation.candidates.length).toBe(input.rules.length + (input.defaultProvider === null ? 0 : 1))
        for (const candidate of evaluation.candidates) expect(candidate.result === "skipped").toBe(candidate.reason !== null)
      }),
      { numRuns: 2000 }
    )
  })

  it("explains why each candidate was passed over", () => {
    const at = (name: string, fields: Partial<ProviderConnection> = {}) =>
      new ProviderConnection({
        object: "provider_connection",
        id: `pcn_${name}`,
        name,
        type: "sandbox",
        status: "active",
        last_error: null,
        supported_currencies: null,
        supported_methods: null,
        settings: {},
        base_url: null,
        consecutive_failures: 0,
        circuit_retry_at: null,
        livemode: false,
        created_at: NOW,
        updated_at: NOW,
        ...fields
      })
    const make = (id: string, priority: number, provider: string, conditions: RuleConditions, enabled = true) =>
      new RoutingRule({ object: "routing_rule", id, priority, conditions, action: { provider }, enabled, livemode: false, created_at: NOW, updated_at: NOW })
    const evaluation = evaluateRouting({
      rules: [
        make("rule_off", 1, "a", {}, false),
        make("rule_usd", 2, "a", { currency: ["USD"] }),
        make("rule_down", 3, "down", {}),
        make("rule_yen", 4, "yen", {}),
        make("rule_b", 5, "b", { amount: { gte: 1000 } }),
        make("rule_b_again", 6, "b", {})
      ],
      connections: [
        at("a"),
        at("b"),
        at("down", { status: "error", circuit_retry_at: DateTime.add(NOW, { seconds: 10 }) }),
        at("yen", { supported_currencies: ["JPY"] })
      ],
      defaultProvider: "a",
      facts: { amount: 1500, currency: "EUR", method: "card", country: null },
      excluded: [],
      now: NOW
    })
    expect(evaluation.candidates.map(({ provider, reason, result, rule_id }) => [rule_id, provider, result, reason])).toEqual([
      ["rule_off", "a", "skipped", "rule_disabled"],
      ["rule_usd", "a", "skipped", "no_match"],
      ["rule_down", "down", "skipped", "connection_error"],
      ["rule_yen", "yen", "skipped", "currency_unsupported"],
      ["rule_b", "b", "chosen", null],
      ["rule_b_again", "b", "skipped", "already_a_candidate"],
      [null, "a", "fallback", null]
    ])
  })
})
