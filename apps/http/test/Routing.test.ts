import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, runJobs, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []

/** Every response this suite receives, to search for secrets at the end. */
const responses: Array<string> = []

const sign = (secret: string, t: number, body: string) => `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs }), { excludeTestServices: true, timeout: "120 seconds" })(
    `provider connections, routing and PSP webhooks over HTTP on ${database.name}`,
    (it) => {
      const api = (baseUrl: string, secret: string) => (path: string, init: { method?: string; body?: unknown } = {}) =>
        raw(`${baseUrl}${path}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: json(secret, path === "/v1/payments" || path.endsWith("/refund") ? newKey() : undefined),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        }).pipe(Effect.tap((response: RawResponse) => Effect.sync(() => responses.push(response.text))))

      it.effect("connections: created with sealed secrets, validated by their type, and the default protected", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const created = yield* call("/v1/provider-connections", {
            body: {
              name: "sandbox_eu",
              type: "sandbox",
              credentials: { api_key: "sk_sandbox_TOPSECRET_1" },
              webhook_secret: "whsec_TOPSECRET_2",
              supported_currencies: ["EUR"],
              settings: { latency_ms: 0 }
            }
          })
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({
            object: "provider_connection",
            name: "sandbox_eu",
            type: "sandbox",
            status: "active",
            supported_currencies: ["EUR"],
            consecutive_failures: 0,
            webhook_url: `${baseUrl}/v1/provider-webhooks/${created.json.id}`
          })
          expect(Object.keys(created.json)).not.toContain("credentials")
          expect(Object.keys(created.json)).not.toContain("webhook_secret")

          const taken = yield* call("/v1/provider-connections", { body: { name: "sandbox_eu", type: "sandbox" } })
          expect([taken.status, taken.json.error.code]).toEqual([409, "connection_name_taken"])
          const invalid = [
            [{ name: "x", type: "worldpay" }, "type"],
            [{ name: "x", type: "sandbox", settings: { outage: "yes" } }, "settings.outage"],
            [{ name: "x", type: "sandbox", settings: { latency: 5 } }, "settings.latency"],
            // An hour of latency held the worker's reconciliation for everyone (finding): a minute at most.
            [{ name: "x", type: "sandbox", settings: { latency_ms: 3_600_000 } }, "settings.latency_ms"],
            [{ name: "x", type: "sandbox", settings: { latency_ms: 60_001 } }, "settings.latency_ms"],
            [{ name: "x", type: "sandbox", credentials: { password: "p" } }, "credentials.password"]
          ] as const
          for (const [body, param] of invalid) {
            const refused = yield* call("/v1/provider-connections", { body })
            expect([refused.status, refused.json.error.param]).toEqual([422, param])
          }
          expect((yield* call("/v1/provider-connections", { body: { name: "Bad Name", type: "sandbox" } })).status).toBe(400)

          const listed = (yield* call("/v1/provider-connections")).json.data.map((each: { name: string }) => each.name)
          expect(listed).toEqual(["sandbox_eu", "sandbox_b", "sandbox_a"])
          const slowest = yield* call(`/v1/provider-connections/${created.json.id}`, { method: "PATCH", body: { settings: { latency_ms: 60_000 } } })
          expect([slowest.status, slowest.json.settings]).toEqual([200, { latency_ms: 60_000 }])
          const tooSlow = yield* call(`/v1/provider-connections/${created.json.id}`, { method: "PATCH", body: { settings: { latency_ms: 3_600_000 } } })
          expect([tooSlow.status, tooSlow.json.error.type, tooSlow.json.error.param]).toEqual([422, "invalid_request_error", "settings.latency_ms"])
          expect(tooSlow.json.error.message).toBe("Invalid settings.latency_ms: at most 60000 (one minute).")
          const patched = yield* call(`/v1/provider-connections/${created.json.id}`, {
            method: "PATCH",
            body: { settings: { outage: true }, credentials: { api_key: "sk_sandbox_TOPSECRET_3" } }
          })
          expect([patched.status, patched.json.settings]).toEqual([200, { outage: true }])

          // The default provider cannot go away; another can.
          const sandboxA = (yield* call("/v1/provider-connections")).json.data.find((each: { name: string }) => each.name === "sandbox_a")
          for (const attempt of [{ method: "DELETE" }, { method: "PATCH", body: { status: "disabled" } }]) {
            const refused = yield* call(`/v1/provider-connections/${sandboxA.id}`, attempt)
            expect([refused.status, refused.json.error.code]).toEqual([409, "default_provider_in_use"])
          }
          const organization = yield* call("/v1/organization")
          expect(organization.json).toMatchObject({ object: "organization", default_provider: "sandbox_a", payments_routing: "default", livemode: false })
          const unknownDefault = yield* call("/v1/organization", { method: "PATCH", body: { default_provider: "nope" } })
          expect([unknownDefault.status, unknownDefault.json.error.param]).toEqual([422, "default_provider"])
          const switched = yield* call("/v1/organization", { method: "PATCH", body: { default_provider: "sandbox_eu" } })
          expect(switched.json.default_provider).toBe("sandbox_eu")
          expect((yield* call(`/v1/provider-connections/${sandboxA.id}`, { method: "DELETE" })).json).toEqual({
            object: "provider_connection",
            id: sandboxA.id,
            deleted: true
          })
          expect((yield* call(`/v1/provider-connections/${sandboxA.id}`)).status).toBe(404)
          const forcedToDeleted = yield* call("/v1/payments", { body: paymentWith("tok_visa", { provider: "sandbox_a" }) })
          expect([forcedToDeleted.status, forcedToDeleted.json.error.code]).toEqual([422, "provider_not_usable"])
          // Used (it is in outage: the failure is on record), and every event of it read back.
          const failed = yield* call("/v1/payments", { body: paymentWith("tok_visa", { provider: "sandbox_eu" }) })
          expect([failed.status, failed.json.error.code]).toEqual([402, "provider_unavailable"])
          expect((yield* call("/v1/events?limit=100")).json.data.length).toBeGreaterThan(0)
          expect((yield* call(`/v1/provider-connections/${created.json.id}`)).json.consecutive_failures).toBe(2)
          // Another organization sees none of it.
          const other = yield* merchant()
          expect((yield* api(baseUrl, other.secret)(`/v1/provider-connections/${created.json.id}`)).status).toBe(404)
        }))

      it.effect("rules: validated with 422 naming the parameter, listed in evaluation order, explained by the dry run", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const bad = [
            [{ currency: ["EUR"], colour: ["red"] }, "conditions.colour"],
            [{ currency: [] }, "conditions.currency"],
            [{ country: "FR" }, "conditions.country"],
            [{ amount: { gte: 500, lte: 100 } }, "conditions.amount"],
            [{ amount: { gte: 1.5 } }, "conditions.amount.gte"],
            [{ amount: {} }, "conditions.amount"]
          ] as const
          for (const [conditions, param] of bad) {
            const refused = yield* call("/v1/routing-rules", { body: { priority: 1, conditions, action: { provider: "sandbox_a" } } })
            expect([refused.status, refused.json.error.code, refused.json.error.param]).toEqual([422, "routing_rule_invalid", param])
          }
          const unknownProvider = yield* call("/v1/routing-rules", { body: { priority: 1, conditions: {}, action: { provider: "stripe_us" } } })
          expect([unknownProvider.status, unknownProvider.json.error.param]).toEqual([422, "action.provider"])
          expect((yield* call("/v1/routing-rules", { body: { priority: "1", conditions: {}, action: { provider: "sandbox_a" } } })).status)
            .toBe(400)

          const usd = yield* call("/v1/routing-rules", {
            body: { priority: 20, conditions: { currency: ["usd"], amount: { lte: 50000 } }, action: { provider: "sandbox_b" } }
          })
          expect(usd.status).toBe(201)
          expect(usd.json.conditions).toEqual({ currency: ["USD"], amount: { lte: 50000 } })
          const french = yield* call("/v1/routing-rules", {
            body: { priority: 10, conditions: { country: ["FR"] }, action: { provider: "sandbox_b" }, enabled: false }
          })
          expect((yield* call("/v1/routing-rules")).json.data.map((rule: { id: string }) => rule.id)).toEqual([french.json.id, usd.json.id])

          const dryRun = (body: unknown) => Effect.map(call("/v1/routing-rules/evaluate", { body }), (response) => response.json)
          // Payments are not routed by rules yet: the dry run is asked about that mode.
          const usdPayment = yield* dryRun({ amount: 2000, currency: "USD", payment_method: { type: "card", country: "FR" }, mode: "rules" })
          expect(usdPayment).toMatchObject({
            object: "routing_evaluation",
            mode: "rules",
            provider: "sandbox_b",
            rule_id: usd.json.id,
            fallbacks: ["sandbox_a"],
            candidates: [
              { rule_id: french.json.id, provider: "sandbox_b", result: "skipped", reason: "rule_disabled" },
              { rule_id: usd.json.id, provider: "sandbox_b", result: "chosen", reason: null },
              { rule_id: null, provider: "sandbox_a", result: "fallback", reason: null }
            ]
          })
          expect(yield* dryRun({ amount: 2000, currency: "EUR", payment_method: { type: "card" } })).toMatchObject({
            provider: "sandbox_a",
            rule_id: null
          })
          expect(yield* dryRun({ amount: 2000, currency: "USD", payment_method: { type: "card" }, exclude: ["sandbox_b", "sandbox_a"] }))
            .toMatchObject({ provider: null, fallbacks: [] })

          // Rules apply to payments only once the organization opts in.
          expect((yield* call("/v1/payments", { body: paymentWith("tok_visa", { currency: "USD" as never }) })).json.provider)
            .toBe("sandbox_a")
          yield* call("/v1/organization", { method: "PATCH", body: { payments_routing: "rules" } })
          const routed = (yield* call("/v1/payments", { body: paymentWith("tok_visa", { currency: "USD" as never }) })).json
          expect([routed.provider, routed.routing]).toEqual(["sandbox_b", { strategy: "rules", rule_id: usd.json.id }])

          const disabled = yield* call(`/v1/routing-rules/${usd.json.id}`, { method: "PATCH", body: { enabled: false } })
          expect(disabled.json.enabled).toBe(false)
          expect((yield* call(`/v1/routing-rules/${usd.json.id}`, { method: "DELETE" })).json.deleted).toBe(true)
          expect((yield* call(`/v1/routing-rules/${usd.json.id}`)).status).toBe(404)
        }))

      it.effect("PSP webhooks: forged or stale refused and nothing stored; verified ones stored once and applied by the worker", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const connection = (yield* call("/v1/provider-connections", {
            body: { name: "sandbox_hooks", type: "sandbox", webhook_secret: "whsec_sandbox_hooks_secret" }
          })).json
          const paid = (yield* call("/v1/payments", {
            body: paymentWith("tok_threeDSecureRequired", { provider: "sandbox_hooks", return_url: "https://shop.example/back" })
          })).json
          expect(paid.status).toBe("requires_action")
          const now = Math.floor(Date.now() / 1000)
          const event = (id: string) =>
            JSON.stringify({
              id,
              type: "charge.updated",
              created: now,
              data: {
                charge: {
                  id: paid.provider_payment_id,
                  reference: paid.attempts[0].id,
                  merchant_reference: paid.id,
                  amount: paid.amount,
                  currency: "EUR",
                  token: "tok_threeDSecureRequired",
                  capture: true,
                  status: "succeeded",
                  amount_captured: paid.amount,
                  failure_code: null,
                  failure_message: null
                }
              }
            })
          const send = (body: string, signature: string, connectionId = connection.id) =>
            raw(`${baseUrl}/v1/provider-webhooks/${connectionId}`, {
              method: "POST",
              headers: { "content-type": "application/json", "service-signature": signature },
              body
            })
          const body = event("sbev_1")
          for (
            const [signature, connectionId] of [
              [sign("whsec_not_it", now, body), connection.id],
              [sign("whsec_sandbox_hooks_secret", now - 600, body), connection.id],
              [sign("whsec_sandbox_hooks_secret", now, body.replace("succeeded", "failed")), connection.id],
              ["", connection.id],
              [sign("whsec_sandbox_hooks_secret", now, body), "pcn_unknown"]
            ] as const
          ) {
            const refused = yield* send(body, signature, connectionId)
            expect([refused.status, refused.json.error.code]).toEqual([400, "webhook_unverified"])
          }
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${paid.id}`)).json.status).toBe("requires_action")

          const accepted = yield* send(body, sign("whsec_sandbox_hooks_secret", now, body))
          expect([accepted.status, accepted.json]).toEqual([200, { received: 1, duplicates: 0 }])
          expect((yield* send(body, sign("whsec_sandbox_hooks_secret", now, body))).json).toEqual({ received: 0, duplicates: 1 })
          yield* runJobs("apply-provider-events")
          const settled = (yield* call(`/v1/payments/${paid.id}`)).json
          expect(settled.status).toBe("succeeded")
          // A late, contradicting event changes nothing: no state moves backwards.
          const late = event("sbev_2").replace("\"succeeded\"", "\"failed\"")
          expect((yield* send(late, sign("whsec_sandbox_hooks_secret", now, late))).status).toBe(200)
          yield* runJobs("apply-provider-events")
          expect((yield* call(`/v1/payments/${paid.id}`)).json.status).toBe("succeeded")
        }))

      it.effect("the sandbox tells the service by webhook: a 3DS the customer never came back from, and a refund that settled later", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const call = api(baseUrl, secret)
          const challenged = (yield* call("/v1/payments", {
            body: paymentWith("tok_threeDSecureRequired", { return_url: "https://shop.example/back" })
          })).json
          // The customer passes the challenge and closes the tab: nobody follows the redirect back.
          const completed = yield* raw(`${challenged.next_action.url}/complete`, { method: "POST" })
          expect(completed.status).toBe(303)
          expect((yield* call(`/v1/payments/${challenged.id}`)).json.status).toBe("requires_action")
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          expect((yield* call(`/v1/payments/${challenged.id}`)).json.status).toBe("succeeded")
          const types = (yield* call(`/v1/events?limit=20`)).json.data
            .filter((each: { data: { object: { id: string } } }) => each.data.object.id === challenged.id)
            .map((each: { type: string }) => each.type)
          expect(types[0]).toBe("payment.succeeded")

          const sandboxA = (yield* call("/v1/provider-connections")).json.data.find((each: { name: string }) => each.name === "sandbox_a")
          yield* call(`/v1/provider-connections/${sandboxA.id}`, {
            method: "PATCH",
            body: { settings: { async_refunds: true, refund_delay_ms: 0 } }
          })
          const refund = (yield* call(`/v1/payments/${challenged.id}/refund`, { body: { amount: 300 } })).json
          expect(refund.status).toBe("pending")
          yield* runJobs("sandbox-notifications", "apply-provider-events")
          expect((yield* call(`/v1/refunds/${refund.id}`)).json.status).toBe("succeeded")
        }))

      it.effect("no response, log line or event ever shows a credential or a webhook secret", () =>
        Effect.sync(() => {
          expect(responses.length).toBeGreaterThan(20)
          for (const secret of ["TOPSECRET_1", "TOPSECRET_2", "TOPSECRET_3", "sandbox_hooks_secret"]) {
            for (const response of responses) expect(response).not.toContain(secret)
            for (const line of logs) expect(line).not.toContain(secret)
          }
        }))
    }
  )
}
