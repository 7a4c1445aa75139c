import { expect, layer } from "@effect/vitest"
import { Organization, OrganizationsRepository, ProviderConnectionsRepository, WebhookSender } from "@orchestrator/core"
import { testConnection, testDatabases } from "@orchestrator/testing"
import { makeNodeWebhookSender } from "@orchestrator/webhook-sender"
import { SIGNATURE_HEADER, verifyWebhook } from "@orchestrator/webhook-verify"
import { DateTime, Effect, Layer, Option } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, merchant, raw, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []

/** A live-mode sandbox connection as the organization's default: what an operator sets up for live mode. */
const givesLiveSandbox = (organizationId: string) =>
  Effect.gen(function*() {
    const organizations = yield* OrganizationsRepository
    const organization = Option.getOrThrow(yield* organizations.find(organizationId))
    yield* (yield* ProviderConnectionsRepository).insert(
      organizationId,
      testConnection({ id: `pcn_live_${organizationId}`, name: "sandbox_live", livemode: true })
    )
    yield* organizations.update(new Organization({ ...organization, default_provider_live: "sandbox_live" }))
  })

// Names that resolve, when the sender connects, to this very machine: what DNS rebinding looks like.
const rebindingSender = Layer.sync(WebhookSender, () =>
  makeNodeWebhookSender({
    resolve: async (hostname: string) => hostname.endsWith(".rebind.test") ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "93.184.216.34", family: 4 }]
  }))

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs, webhookSender: rebindingSender }), { excludeTestServices: true, timeout: "120 seconds" })(
    `webhooks over HTTP on ${database.name}`,
    (it) => {
      it.scoped("a merchant registers a receiver, gets a signed event, misses one while down, and resends it", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const receiver = yield* startReceiver
          const api = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
            raw(`${baseUrl}${path}`, {
              method: init.method ?? (init.body === undefined ? "GET" : "POST"),
              headers: json(secret, init.key),
              ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
            })

          const created = yield* api("/v1/webhooks/endpoints", {
            body: { url: receiver.url, enabled_events: ["payment.succeeded"], description: "local receiver" }
          })
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({
            object: "webhook_endpoint",
            url: receiver.url,
            enabled_events: ["payment.succeeded"],
            status: "active",
            livemode: false
          })
          const signingSecret: string = created.json.secret
          expect(signingSecret).toMatch(/^whsec_/)

          const payment = yield* api("/v1/payments", { body: paymentWith("tok_visa"), key: newKey() })
          expect(payment.status).toBe(201)
          yield* deliverWebhooks
          expect(receiver.received).toHaveLength(1)
          const [arrived] = receiver.received
          const event = verifyWebhook(arrived!.body, arrived!.headers[SIGNATURE_HEADER] as string, signingSecret)
          expect(event).toMatchObject({ type: "payment.succeeded", data: { object: { id: payment.json.id, status: "succeeded" } } })
          expect(arrived!.headers["service-event-id"]).toBe(event.id)
          // The event is there to read, exactly as it was delivered.
          expect((yield* api(`/v1/events/${event.id}`)).json).toEqual(event)
          const listed = yield* api(`/v1/events?type=payment.succeeded&limit=5`)
          expect(listed.json.data.map((each: { id: string }) => each.id)).toEqual([event.id])

          const succeeded = (yield* api(`/v1/webhooks/deliveries?status=succeeded`)).json.data
          expect(succeeded).toHaveLength(1)
          expect(succeeded[0]).toMatchObject({ event_id: event.id, attempt_count: 1, last_response_status: 200, attempts: null })
          const detail = (yield* api(`/v1/webhooks/deliveries/${succeeded[0].id}`)).json
          expect(detail.attempts).toEqual([expect.objectContaining({ response_status: 200, error: null, response_body: "thanks" })])

          // The receiver goes down: the next event waits, with its attempt and its next try on record.
          yield* receiver.stop
          yield* api("/v1/payments", { body: paymentWith("tok_visa"), key: newKey() })
          const before = yield* DateTime.now
          yield* deliverWebhooks
          const [pending] = (yield* api(`/v1/webhooks/deliveries?status=pending`)).json.data
          expect(pending).toMatchObject({ attempt_count: 1, last_response_status: null, last_error: "Connection refused." })
          const nextIn = new Date(pending.next_attempt_at).getTime() - DateTime.toEpochMillis(before)
          expect(nextIn).toBeGreaterThan(50_000)
          expect(nextIn).toBeLessThan(70_000)

          // Back up (on a new port), the merchant points the endpoint there and resends at once.
          const again = yield* startReceiver
          expect((yield* api(`/v1/webhooks/endpoints/${created.json.id}`, { method: "PATCH", body: { url: again.url } })).status)
            .toBe(200)
          const resent = yield* api(`/v1/webhooks/deliveries/${pending.id}/resend`, { body: {} })
          expect([resent.status, resent.json.status]).toEqual([200, "pending"])
          yield* deliverWebhooks
          expect(again.received).toHaveLength(1)
          const done = (yield* api(`/v1/webhooks/deliveries/${pending.id}`)).json
          expect([done.status, done.attempt_count]).toEqual(["succeeded", 2])
          expect(done.attempts.map((attempt: { error: string | null }) => attempt.error)).toEqual(["Connection refused.", null])
        }))

      it.scoped("rotating a secret signs with both for a day; the secret is never shown again, nor logged", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const receiver = yield* startReceiver
          const api = (path: string, method = "GET", body?: unknown) =>
            raw(`${baseUrl}${path}`, { method, headers: json(secret), ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
          const created = (yield* api("/v1/webhooks/endpoints", "POST", { url: receiver.url })).json
          const rotated = (yield* api(`/v1/webhooks/endpoints/${created.id}/rotate-secret`, "POST", {})).json
          expect(rotated.secret).toMatch(/^whsec_/)
          expect(rotated.secret).not.toBe(created.secret)

          yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa"))
          })
          yield* deliverWebhooks
          expect(receiver.received.length).toBeGreaterThan(0)
          for (const arrived of receiver.received) {
            const header = arrived.headers[SIGNATURE_HEADER] as string
            expect(header.match(/v1=/g)).toHaveLength(2)
            expect(verifyWebhook(arrived.body, header, created.secret).object).toBe("event")
            expect(verifyWebhook(arrived.body, header, rotated.secret).object).toBe("event")
          }

          // Nothing after the creation and the rotation carries a secret: reads, lists, deliveries, events, logs.
          const later = [
            yield* api(`/v1/webhooks/endpoints/${created.id}`),
            yield* api(`/v1/webhooks/endpoints`),
            yield* api(`/v1/webhooks/endpoints/${created.id}`, "PATCH", { description: "renamed" }),
            yield* api(`/v1/webhooks/deliveries`),
            yield* api(`/v1/events`)
          ]
          for (const response of later) {
            expect(response.status).toBe(200)
            expect(response.text).not.toContain(created.secret)
            expect(response.text).not.toContain(rotated.secret)
            expect(response.text).not.toContain("whsec_")
          }
          expect(logs.length).toBeGreaterThan(0)
          expect(logs.join("\n")).not.toContain(created.secret.slice(6))
          expect(logs.join("\n")).not.toContain(rotated.secret.slice(6))
          const deleted = yield* api(`/v1/webhooks/endpoints/${created.id}`, "DELETE")
          expect(deleted.json).toEqual({ object: "webhook_endpoint", id: created.id, deleted: true })
          expect((yield* api(`/v1/webhooks/endpoints/${created.id}`)).status).toBe(404)
          expect((yield* api(`/v1/webhooks/deliveries`)).json.data).toEqual([])
        }))

      it.effect("live mode: https to a public address only, checked again on the address each delivery connects to", () =>
        Effect.gen(function*() {
          const { baseUrl, organization, secret } = yield* merchant(true)
          const create = (url: string) => raw(`${baseUrl}/v1/webhooks/endpoints`, { method: "POST", headers: json(secret), body: JSON.stringify({ url }) })
          for (const url of ["http://hooks.merchant.example/x", "https://127.0.0.1/x", "https://localhost/x", "https://10.0.0.8/x", "https://[::1]/x"]) {
            const refused = yield* create(url)
            expect([refused.status, refused.json.error.code, refused.json.error.param]).toEqual([400, "url_not_allowed", "url"])
          }
          // A name is allowed when it is saved, and refused when it resolves to this machine at delivery time.
          const sneaky = yield* create("https://hooks.rebind.test/x")
          expect(sneaky.status).toBe(201)
          yield* givesLiveSandbox(organization.id)
          const live = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa", { amount: 4200 }))
          })
          expect(live.status).toBe(201)
          yield* deliverWebhooks
          const deliveries = (yield* raw(`${baseUrl}/v1/webhooks/deliveries`, { headers: json(secret) })).json.data
          expect(deliveries.length).toBeGreaterThan(0)
          for (const delivery of deliveries) {
            expect(delivery.status).toBe("pending")
            expect(delivery.last_error).toContain("resolves only to private, loopback or link-local addresses")
          }
        }))

      it.effect("bad input gets 400 with the parameter, and another organization's objects answer 404", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const other = yield* merchant()
          const post = (body: unknown, key = secret) =>
            raw(`${baseUrl}/v1/webhooks/endpoints`, { method: "POST", headers: json(key), body: JSON.stringify(body) })
          expect((yield* post({ url: "not a url" })).json.error.param).toBe("url")
          expect((yield* post({ url: "ftp://x.example/" })).json.error.param).toBe("url")
          const unknownType = yield* post({ url: "https://x.example/", enabled_events: ["payment.exploded"] })
          expect([unknownType.status, unknownType.json.error.param]).toEqual([400, "enabled_events.0"])
          expect((yield* post({ url: "https://x.example/", colour: "red" })).json.error.code).toBe("parameter_unknown")
          const mine = (yield* post({ url: "https://x.example/" })).json
          for (const path of [`/v1/webhooks/endpoints/${mine.id}`, `/v1/webhooks/deliveries/whev_unknown`]) {
            const response = yield* raw(`${baseUrl}${path}`, { headers: json(other.secret) })
            expect([response.status, response.json.error.code]).toEqual([404, "resource_missing"])
          }
          const patch = yield* raw(`${baseUrl}/v1/webhooks/endpoints/${mine.id}`, {
            method: "PATCH",
            headers: json(secret),
            body: JSON.stringify({ status: "paused" })
          })
          expect([patch.status, patch.json.error.param]).toEqual([400, "status"])
          const bulk = yield* raw(`${baseUrl}/v1/webhooks/deliveries/resend`, {
            method: "POST",
            headers: json(secret),
            body: JSON.stringify({ "created[gte]": "yesterday" })
          })
          expect([bulk.status, bulk.json.error.param]).toEqual([400, "created[gte]"])
          // Every filter is optional: no body at all resends the dead-letter set (empty here).
          const bare = yield* raw(`${baseUrl}/v1/webhooks/deliveries/resend`, { method: "POST", headers: { authorization: `Bearer ${secret}` } })
          expect([bare.status, bare.json]).toEqual([200, { object: "webhook_delivery_resend", queued: 0 }])
          const events = yield* raw(`${baseUrl}/v1/events?type=payment.exploded`, { headers: json(secret) })
          expect([events.status, events.json.error.param]).toEqual([400, "type"])
        }))
    }
  )
}
