import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `the routing dry run on ${database.name}`,
    (it) => {
      /** A new organization (sandbox_a the default, sandbox_b beside it) with one rule sending `conditions` to sandbox_b. */
      const setup = (conditions: object) =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
            raw(`${baseUrl}${path}`, {
              method,
              headers: json(secret, path === "/v1/payments" ? newKey() : undefined),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          const rule = (yield* call("/v1/routing-rules", { priority: 10, conditions, action: { provider: "sandbox_b" } })).json
          const dryRun = (body: object) => call("/v1/routing-rules/evaluate", body)
          const pay = (body: object) => Effect.map(call("/v1/payments", body), (response) => response.json)
          const routeBy = (mode: "default" | "rules") => call("/v1/organization", { payments_routing: mode }, "PATCH")
          return { call, rule, dryRun, pay, routeBy }
        })

      const usd = { amount: 2000, currency: "USD", payment_method: { type: "card", token: "tok_visa" } }

      it.effect("answers for the organization's current mode and says it; the answer matches where the payment goes", () =>
        Effect.gen(function*() {
          const { dryRun, pay, routeBy, rule } = yield* setup({ currency: ["USD"] })

          const byDefault = (yield* dryRun(usd)).json
          expect(byDefault).toMatchObject({
            object: "routing_evaluation",
            mode: "default",
            provider: "sandbox_a",
            rule_id: null,
            routing: { strategy: "default", rule_id: null },
            candidates: [
              { rule_id: rule.id, provider: "sandbox_b", result: "skipped", reason: "rules_not_used" },
              { rule_id: null, provider: "sandbox_a", result: "chosen", reason: null }
            ]
          })
          const paid = yield* pay(usd)
          expect([paid.provider, paid.routing]).toEqual([byDefault.provider, byDefault.routing])

          yield* routeBy("rules")
          const byRules = (yield* dryRun(usd)).json
          expect(byRules).toMatchObject({
            mode: "rules",
            provider: "sandbox_b",
            rule_id: rule.id,
            routing: { strategy: "rules", rule_id: rule.id },
            fallbacks: ["sandbox_a"]
          })
          const routed = yield* pay(usd)
          expect([routed.provider, routed.routing]).toEqual([byRules.provider, byRules.routing])
        }))

      it.effect("`mode` asks about the mode the organization does not use", () =>
        Effect.gen(function*() {
          const { dryRun, routeBy, rule } = yield* setup({ currency: ["USD"] })
          expect((yield* dryRun({ ...usd, mode: "rules" })).json).toMatchObject({ mode: "rules", provider: "sandbox_b", rule_id: rule.id })
          yield* routeBy("rules")
          expect((yield* dryRun({ ...usd, mode: "default" })).json).toMatchObject({ mode: "default", provider: "sandbox_a", rule_id: null })
          const wrong = yield* dryRun({ ...usd, mode: "sometimes" })
          expect([wrong.status, wrong.json.error.param]).toEqual([400, "mode"])
        }))

      it.effect("takes the exact body of POST /v1/payments: its token's card country and brand are used, as by the payment", () =>
        Effect.gen(function*() {
          const { call, dryRun, pay, routeBy, rule } = yield* setup({ country: ["FR"] })
          yield* routeBy("rules")
          const customer = (yield* call("/v1/customers", { email: "routed@example.com" })).json
          const payment = {
            amount: 4200,
            currency: "EUR",
            payment_method: { type: "card", token: "tok_visa_fr" },
            customer_id: customer.id,
            description: "Order 42",
            capture: false,
            return_url: "https://shop.example/back",
            metadata: { order: "42" }
          }
          const answer = yield* dryRun(payment)
          expect(answer.status).toBe(200)
          expect(answer.json).toMatchObject({
            mode: "rules",
            provider: "sandbox_b",
            rule_id: rule.id,
            payment_method: { type: "card", brand: "visa", country: "FR" }
          })
          const made = yield* pay(payment)
          expect([made.provider, made.routing]).toEqual(["sandbox_b", { strategy: "rules", rule_id: rule.id }])

          // An American card does not match the French rule, in the dry run as in the payment.
          const american = { ...payment, payment_method: { type: "card", token: "tok_visa" } }
          expect((yield* dryRun(american)).json).toMatchObject({ provider: "sandbox_a", payment_method: { brand: "visa", country: "US" } })
          expect((yield* pay(american)).provider).toBe("sandbox_a")
          // The country the request gives is taken before the token's.
          expect((yield* dryRun({ ...american, payment_method: { type: "card", token: "tok_visa", country: "fr" } })).json)
            .toMatchObject({ provider: "sandbox_b", payment_method: { country: "FR" } })

          // A provider forces, as it does for a payment: no rule is asked.
          expect((yield* dryRun({ ...payment, provider: "sandbox_a" })).json).toMatchObject({
            provider: "sandbox_a",
            rule_id: null,
            routing: { strategy: "forced", rule_id: null },
            fallbacks: [],
            candidates: [{ provider: "sandbox_a", result: "chosen" }]
          })
          expect((yield* dryRun({ ...payment, provider: "nope" })).json)
            .toMatchObject({ provider: null, routing: null, candidates: [{ provider: "nope", result: "skipped", reason: "unknown_provider" }] })
        }))

      it.effect("keeps taking what it took before, and refuses what a payment refuses", () =>
        Effect.gen(function*() {
          const { dryRun } = yield* setup({ currency: ["USD"] })
          const old = yield* dryRun({ amount: 2000, currency: "USD", payment_method: { type: "sepa_debit", country: "DE" }, exclude: ["sandbox_b"] })
          expect([old.status, old.json.provider, old.json.payment_method]).toEqual([200, "sandbox_a", { type: "sepa_debit", brand: null, country: "DE" }])
          for (
            const [body, param] of [
              [{ ...usd, colour: "blue" }, "colour"],
              [{ ...usd, payment_method: { type: "card", token: "4242424242424242" } }, "payment_method.token"],
              [{ ...usd, return_url: "not a url" }, "return_url"],
              [{ ...usd, capture: "no" }, "capture"]
            ] as const
          ) {
            const refused = yield* dryRun(body)
            expect([refused.status, refused.json.error.param]).toEqual([400, param])
          }
        }))
    }
  )
}
