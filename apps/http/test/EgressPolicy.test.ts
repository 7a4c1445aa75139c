import { expect, layer } from "@effect/vitest"
import { ProviderConnection, ProviderConnectionsRepository } from "@orchestrator/core"
import { fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect, Option } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const stripe = (base_url: string | undefined, name = `stripe_${Math.random().toString(36).slice(2, 8)}`) => ({
  name,
  type: "stripe",
  credentials: { secret_key: "sk_test_51BaseUrl" },
  ...(base_url === undefined ? {} : { base_url })
})
const adyen = (base_url: string) => ({
  name: `adyen_${Math.random().toString(36).slice(2, 8)}`,
  type: "adyen",
  credentials: { api_key: "AQE_x", merchant_account: "ShopECOM" },
  base_url
})

const connections = (baseUrl: string, secret: string) => ({
  create: (body: unknown) => raw(`${baseUrl}/v1/provider-connections`, { method: "POST", headers: json(secret), body: JSON.stringify(body) }),
  update: (id: string, body: unknown) => raw(`${baseUrl}/v1/provider-connections/${id}`, { method: "PATCH", headers: json(secret), body: JSON.stringify(body) })
})

/** The documented refusal: 422 `connection_invalid` on `base_url`, with our reason and nothing echoed from elsewhere. */
const expectRefused = (response: { status: number; json: any }, reason: RegExp) => {
  expect([response.status, response.json.error.type, response.json.error.code, response.json.error.param])
    .toEqual([422, "invalid_request_error", "connection_invalid", "base_url"])
  expect(response.json.error.message).toMatch(reason)
}

for (const database of testDatabases()) {
  // A PostgreSQL deployment's default: test mode kept off private addresses too.
  layer(serverLayer(database.layer, { privateAddresses: "deny" }), { excludeTestServices: true, timeout: "120 seconds" })(
    `PSP base_url and webhook URLs under the egress policy, private addresses denied, on ${database.name}`,
    (it) => {
      it.effect("live mode: only the PSP's documented hosts over https, on create and on update", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant(true)
          const api = connections(baseUrl, secret)
          for (
            const [body, reason] of [
              [stripe("http://127.0.0.1:4811"), /must use https/],
              [stripe("https://127.0.0.1:4811"), /127\.0\.0\.1 is not among the hosts allowed here \(api\.stripe\.com, files\.stripe\.com\)/],
              [stripe("https://169.254.169.254/latest"), /not among the hosts/],
              [stripe("https://2130706433/"), /127\.0\.0\.1 is not among the hosts/],
              [stripe("https://api.stripe.com.evil.example"), /not among the hosts/],
              [adyen("https://checkout.evil.example/checkout"), /not among the hosts allowed here \(\*\.adyen\.com, \*-checkout-live\.adyenpayments\.com\)/]
            ] as const
          ) {
            expectRefused(yield* api.create(body), reason)
          }
          const created = yield* api.create(stripe("https://api.stripe.com"))
          expect([created.status, created.json.base_url]).toEqual([201, "https://api.stripe.com"])
          const adyenLive = yield* api.create(adyen("https://1797a841fbb37ca7-ShopName-checkout-live.adyenpayments.com/checkout"))
          expect(adyenLive.status).toBe(201)
          expectRefused(yield* api.update(created.json.id, { base_url: "http://127.0.0.1:6379" }), /must use https/)
          expectRefused(yield* api.update(adyenLive.json.id, { base_url: "https://[::1]/checkout" }), /not among the hosts/)
          // Refused updates changed nothing.
          const kept = yield* raw(`${baseUrl}/v1/provider-connections/${created.json.id}`, { headers: json(secret) })
          expect(kept.json.base_url).toBe("https://api.stripe.com")
        }))

      it.effect("test mode: any public https URL; loopback, private, link-local and plain http refused, on create and on update", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const api = connections(baseUrl, secret)
          for (
            const [url, reason] of [
              ["http://127.0.0.1:4811", /must use https/],
              ["https://127.0.0.1:4811", /private, loopback or link-local/],
              ["https://0x7f.1:4811", /private, loopback or link-local/],
              ["https://[::ffff:127.0.0.1]:4811", /private, loopback or link-local/],
              ["https://[64:ff9b::a9fe:a9fe]/", /private, loopback or link-local/],
              ["https://10.0.0.8/", /private, loopback or link-local/],
              ["https://localhost:4811", /localhost/]
            ] as const
          ) {
            const refused = yield* api.create(stripe(url))
            expectRefused(refused, reason)
            expect(refused.json.error.message).toContain("ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES=deny")
          }
          const created = yield* api.create(stripe("https://stripe-mock.example"))
          expect(created.status).toBe(201)
          expectRefused(yield* api.update(created.json.id, { base_url: "https://169.254.169.254" }), /private, loopback or link-local/)
          expect((yield* api.update(created.json.id, { base_url: null })).json.base_url).toBeNull()
        }))

      it.scoped("a URL saved before the operator denied private addresses fails the call at connect time: nothing reaches it", () =>
        Effect.gen(function*() {
          const fake = yield* fakeStripe
          const { baseUrl, secret, tenant } = yield* merchant()
          const created = yield* connections(baseUrl, secret).create(stripe("https://stripe-mock.example", "stripe_old"))
          // As if saved when the setting allowed it: straight into storage, past the API's check.
          const repository = yield* ProviderConnectionsRepository
          const stored = Option.getOrThrow(yield* repository.find(tenant, created.json.id))
          yield* repository.update(tenant.organizationId, new ProviderConnection({ ...stored, base_url: fake.url }))
          expect((yield* raw(`${baseUrl}/v1/provider-connections/${created.json.id}`, { headers: json(secret) })).json.base_url).toBe(fake.url)
          const payment = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ amount: 1050, currency: "EUR", provider: "stripe_old", payment_method: { type: "card", token: "pm_card_visa" } })
          })
          expect(payment.status).not.toBe(201)
          expect(payment.text).not.toContain("succeeded")
          expect(fake.exchanges).toHaveLength(0)
        }))

      it.effect("test-mode webhook endpoints: an address on the operator's network is refused when saved", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const create = (url: string) => raw(`${baseUrl}/v1/webhooks/endpoints`, { method: "POST", headers: json(secret), body: JSON.stringify({ url }) })
          for (const url of ["http://127.0.0.1:4811/secret", "http://2130706433:4811/", "http://[::ffff:a9fe:a9fe]/latest", "http://localhost:6379/"]) {
            const refused = yield* create(url)
            expect([refused.status, refused.json.error.code, refused.json.error.param], url).toEqual([400, "url_not_allowed", "url"])
            // The developer is told which setting of the operator's refuses it.
            expect(refused.json.error.message, url).toContain("ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES=deny")
          }
          expect((yield* create("http://hooks.merchant.example/x")).status).toBe(201)
        }))
    }
  )

  // The embedded start's default: a developer's fakes on this machine, test mode only.
  layer(serverLayer(database.layer, { privateAddresses: "allow" }), { excludeTestServices: true, timeout: "120 seconds" })(
    `PSP base_url and webhook URLs under the egress policy, private addresses allowed, on ${database.name}`,
    (it) => {
      it.effect("test mode takes a local fake PSP and a local receiver over http; live mode still only the PSP's hosts", () =>
        Effect.gen(function*() {
          const test = yield* merchant()
          const local = yield* connections(test.baseUrl, test.secret).create(stripe("http://127.0.0.1:12111"))
          expect([local.status, local.json.base_url]).toEqual([201, "http://127.0.0.1:12111"])
          const live = yield* merchant(true)
          expectRefused(yield* connections(live.baseUrl, live.secret).create(stripe("https://127.0.0.1:12111")), /not among the hosts/)
          expectRefused(yield* connections(live.baseUrl, live.secret).create(stripe("http://api.stripe.com")), /must use https/)
          const endpoint = yield* raw(`${test.baseUrl}/v1/webhooks/endpoints`, {
            method: "POST",
            headers: json(test.secret),
            body: JSON.stringify({ url: "http://127.0.0.1:4811/hooks" })
          })
          expect(endpoint.status).toBe(201)
        }))
    }
  )
}
