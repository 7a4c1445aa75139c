import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { connectorTakes } from "../src/domain/payments/PaymentMethodTypes.js"
import { ProviderConnection } from "../src/domain/providers/ProviderConnection.js"
import { evaluateRouting } from "../src/domain/routing/RoutingEvaluation.js"
import { type RoutingFacts, RoutingRule, type RuleConditions, validateConditions } from "../src/domain/routing/RoutingRule.js"

const NOW = DateTime.unsafeMake(0)

const connection = (name: string, type: string) =>
  new ProviderConnection({
    object: "provider_connection",
    id: `pcn_${name}`,
    name,
    type,
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
    updated_at: NOW
  })

const rule = (id: string, priority: number, provider: string, conditions: RuleConditions) =>
  new RoutingRule({ object: "routing_rule", id, priority, conditions, action: { provider }, enabled: true, livemode: false, created_at: NOW, updated_at: NOW })

/** As the catalog answers: PayPal takes `paypal` only, every other type cards (the default). */
const takes = (type: string, method: string) => connectorTakes(type === "paypal" ? ["paypal"] : undefined, method)

const facts = (method: string): RoutingFacts => ({ amount: 1000, currency: "EUR", method, country: null })

describe("routing by payment method", () => {
  const connections = [connection("stripe_eu", "stripe"), connection("paypal_eu", "paypal")]
  const route = (method: string, rules: ReadonlyArray<RoutingRule>, defaultProvider: string | null = "stripe_eu") =>
    evaluateRouting({ rules, connections, defaultProvider, facts: facts(method), excluded: [], now: NOW, takes })

  it("a rule may match payment_method.type; its method list is taken in any case", () => {
    const conditions = validateConditions({ method: ["PayPal"] })
    expect(conditions).toEqual(Either.right({ method: ["paypal"] }))
    const byMethod = [rule("rule_pp", 1, "paypal_eu", { method: ["paypal"] })]
    expect(route("paypal", byMethod).eligible.map((each) => each.provider)).toEqual(["paypal_eu"])
    expect(route("card", byMethod).eligible.map((each) => each.provider)).toEqual(["stripe_eu"])
  })

  it("a card never goes to a PayPal connection, nor a PayPal payment to a card PSP, whatever the rules say", () => {
    const everything = [rule("rule_all", 1, "paypal_eu", {})]
    const card = route("card", everything)
    expect(card.candidates.find((each) => each.provider === "paypal_eu")).toMatchObject({ result: "skipped", reason: "method_unsupported" })
    expect(card.eligible.map((each) => each.provider)).toEqual(["stripe_eu"])
    // PayPal payments with only a card PSP as default: nothing can take them.
    const wallet = route("paypal", [])
    expect(wallet.eligible).toEqual([])
    expect(wallet.candidates).toEqual([expect.objectContaining({ provider: "stripe_eu", reason: "method_unsupported" })])
  })

  it("a method the core does not know (only a dry run names one) is left to the connection's supported_methods", () => {
    expect(connectorTakes(undefined, "sepa_debit")).toBe(true)
    expect(connectorTakes(undefined, "paypal")).toBe(false)
    expect(connectorTakes(["paypal"], "card")).toBe(false)
    expect(connectorTakes(undefined, "card")).toBe(true)
  })
})
