import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { checkoutSetup, sessionBody } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { raw, serverLayer } from "./support/TestServer.js"

const PUBLIC_FIELDS = [
  "allowed_methods",
  "amount",
  "cancel_url",
  "currency",
  "expires_at",
  "id",
  "locale",
  "object",
  "payment",
  "return_url",
  "status",
  "success_url",
  "ui"
]

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `checkout sessions over HTTP on ${database.name}`,
    (it) => {
      it.effect("the server creates a session (Idempotency-Key required, replayed) and sees the full view", () =>
        Effect.gen(function*() {
          const { baseUrl, created, secret, server, session } = yield* checkoutSetup({
            locale: "fr",
            customer_email: "ada@example.com",
            metadata: { order: "42" },
            expires_in: 1800
          })
          expect(created.status).toBe(201)
          expect(session).toMatchObject({
            object: "checkout.session",
            status: "open",
            amount: 2500,
            currency: "EUR",
            ui: { provider: "sandbox_a", type: "sandbox", publishable_key: null, methods: ["card"] },
            allowed_methods: null,
            locale: "fr",
            customer_email: "ada@example.com",
            metadata: { order: "42" },
            payment_id: null,
            payment: null,
            livemode: false
          })
          expect(session.id).toMatch(/^cs_/)
          expect(session.client_secret).toMatch(new RegExp(`^${session.id}_secret_[0-9A-Z]{32}$`))
          expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(1_800_000)

          const noKey = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(secret),
            body: JSON.stringify(sessionBody)
          })
          expect([noKey.status, noKey.json.error.param]).toEqual([400, "Idempotency-Key"])
          const key = newKey()
          const first = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(secret, key),
            body: JSON.stringify(sessionBody)
          })
          const again = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(secret, key),
            body: JSON.stringify(sessionBody)
          })
          expect([again.status, again.headers.get("idempotent-replayed"), again.json]).toEqual([201, "true", first.json])

          for (const bad of [{ expires_in: 1799 }, { expires_in: 86401 }, { success_url: "/relative" }, { locale: "xx" }, { surprise: 1 }]) {
            const refused = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({ ...sessionBody, ...bad })
            })
            expect(refused.status).toBe(400)
          }
          const forced = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify({ ...sessionBody, provider: "nowhere" })
          })
          expect([forced.status, forced.json.error.code]).toEqual([422, "provider_not_usable"])

          const listed = yield* server("/v1/checkout/sessions?status=open&limit=2")
          expect(listed.json.data.map((each: { id: string }) => each.id)).toEqual([first.json.id, session.id])
        }))

      it.effect("the client secret yields exactly the public view; the server key the full one", () =>
        Effect.gen(function*() {
          const { browser, server, session } = yield* checkoutSetup()
          const byHeader = yield* browser(`/v1/checkout/sessions/${session.id}`)
          const byQuery = yield* browser(`/v1/checkout/sessions/${session.id}`, { via: "query" })
          expect(byHeader.status).toBe(200)
          expect(Object.keys(byHeader.json).sort()).toEqual(PUBLIC_FIELDS)
          expect(byQuery.json).toEqual(byHeader.json)
          for (const field of PUBLIC_FIELDS) expect(byHeader.json[field]).toEqual(session[field])
          // expand belongs to the server view; the browser's view is the same with or without it.
          expect((yield* browser(`/v1/checkout/sessions/${session.id}?expand=payment`)).json).toEqual(byHeader.json)

          const full = yield* server(`/v1/checkout/sessions/${session.id}`)
          expect(full.json).toEqual(session)
          expect(full.json.client_secret).toBe(session.client_secret)
        }))

      it.effect("the client secret opens its own session's endpoints and nothing else", () =>
        Effect.gen(function*() {
          const { baseUrl, browser, session } = yield* checkoutSetup()
          const other = (yield* checkoutSetup()).session
          // Another session of another merchant, and one that does not exist: the same 404.
          for (const id of [other.id, "cs_0000000000AAAAAAAAAAAAAAAAAAAA"]) {
            for (const suffix of ["", "/cancel", "/reroute", "/confirm"]) {
              const method = suffix === "" ? "GET" : "POST"
              const body = suffix === "/confirm" ? { payment_method: { type: "card", token: "tok_visa" } } : {}
              const answer = yield* browser(`/v1/checkout/sessions/${id}${suffix}`, { method, ...(method === "POST" ? { body } : {}) })
              expect([suffix, answer.status, answer.json.error.code]).toEqual([suffix, 404, "resource_missing"])
            }
          }
          // A wrong secret for this very session, and the other session's secret: 401 alike.
          const forged = `${session.id}_secret_${other.client_secret.split("_secret_")[1]}`
          for (const clientSecret of [forged, "nonsense", other.client_secret.slice(0, -1)]) {
            const answer = yield* browser(`/v1/checkout/sessions/${session.id}`, { clientSecret })
            expect([answer.status, answer.json.error.type]).toEqual([401, "authentication_error"])
          }
          // Elsewhere the client secret is no key at all.
          for (const path of ["/v1/payments", "/v1/checkout/sessions", "/v1/events", `/v1/payments/${session.id}`]) {
            const answer = yield* browser(path)
            expect([path, answer.status]).toEqual([path, 401])
          }
          const asBearer = yield* raw(`${baseUrl}/v1/checkout/sessions/${session.id}`, {
            headers: { authorization: `Bearer ${session.client_secret}` }
          })
          expect(asBearer.status).toBe(401)
          const create = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
            method: "POST",
            headers: { "content-type": "application/json", "service-client-secret": session.client_secret, "idempotency-key": newKey() },
            body: JSON.stringify(sessionBody)
          })
          expect(create.status).toBe(401)
        }))

      it.effect("a decline fails the session; reroute reopens it on the other sandbox, where the customer pays", () =>
        Effect.gen(function*() {
          const { confirm, reroute, server, session } = yield* checkoutSetup()
          const declined = yield* confirm("tok_chargeDeclined")
          expect(declined.status).toBe(200)
          expect(Object.keys(declined.json).sort()).toEqual(PUBLIC_FIELDS)
          expect(declined.json.status).toBe("payment_failed")
          expect(declined.json.payment).toMatchObject({ status: "failed", provider: "sandbox_a", failure: { code: "card_declined" } })
          expect(Object.keys(declined.json.payment).sort()).toEqual([
            "amount",
            "currency",
            "failure",
            "id",
            "next_action",
            "provider",
            "status"
          ])

          const reopened = yield* reroute({ exclude_provider: "sandbox_a" })
          expect([reopened.status, reopened.json.status, reopened.json.ui.provider]).toEqual([200, "open", "sandbox_b"])
          const paid = yield* confirm("tok_visa")
          expect([paid.json.status, paid.json.payment.status, paid.json.payment.provider]).toEqual([
            "complete",
            "succeeded",
            "sandbox_b"
          ])

          const full = (yield* server(`/v1/checkout/sessions/${session.id}?expand=payment`)).json
          expect(full).toMatchObject({ status: "complete", payment_id: paid.json.payment.id, excluded_providers: ["sandbox_a"] })
          expect(full.payment).toMatchObject({ id: paid.json.payment.id, status: "succeeded", metadata: { checkout_session_id: session.id } })
          const payments = yield* Effect.forEach(full.payment_ids as Array<string>, (id) => server(`/v1/payments/${id}`))
          expect(payments.map((each) => [each.json.provider, each.json.status])).toEqual([
            ["sandbox_a", "failed"],
            ["sandbox_b", "succeeded"]
          ])
          const events = (yield* server(`/v1/events?type=checkout.session.completed`)).json.data
          expect(events.map((event: any) => event.data.object.id)).toContain(session.id)
          expect(JSON.stringify(events)).not.toContain(session.client_secret)
        }))

      it.effect("cancel and reroute from every status: 409 where decisions §12 says", () =>
        Effect.gen(function*() {
          // open: cancel works, reroute is 409.
          const open = yield* checkoutSetup()
          expect((yield* open.reroute()).status).toBe(409)
          const cancelled = yield* open.cancel()
          expect([cancelled.status, cancelled.json.status]).toEqual([200, "cancelled"])
          expect(Object.keys(cancelled.json).sort()).toEqual(PUBLIC_FIELDS)
          // cancelled: everything is 409.
          expect((yield* open.cancel()).status).toBe(409)
          expect((yield* open.reroute()).status).toBe(409)
          expect((yield* open.confirm("tok_visa")).status).toBe(409)

          // payment_failed: cancel works (by the server key too).
          const failed = yield* checkoutSetup()
          yield* failed.confirm("tok_chargeDeclined")
          const byServer = yield* failed.server(`/v1/checkout/sessions/${failed.session.id}/cancel`, { method: "POST" })
          expect([byServer.status, byServer.json.status]).toEqual([200, "cancelled"])

          // complete: 409 for both.
          const complete = yield* checkoutSetup()
          yield* complete.confirm("tok_visa")
          const conflict = yield* complete.cancel()
          expect([conflict.status, conflict.json.error.code]).toEqual([409, "checkout_session_unexpected_state"])
          expect((yield* complete.reroute()).status).toBe(409)

          // processing (a 3D Secure challenge under way): 409 for both.
          const challenged = yield* checkoutSetup()
          const pending = yield* challenged.confirm("tok_threeDSecureRequired")
          expect([pending.json.status, pending.json.payment.next_action.type]).toEqual(["processing", "redirect"])
          expect((yield* challenged.cancel()).status).toBe(409)
          expect((yield* challenged.reroute()).status).toBe(409)
        }))

      it.effect("reroute with no other eligible provider answers 422 and the session stays failed", () =>
        Effect.gen(function*() {
          const { confirm, reroute, server, session } = yield* checkoutSetup()
          const connections = (yield* server("/v1/provider-connections")).json.data
          const b = connections.find((each: { name: string }) => each.name === "sandbox_b")
          expect((yield* server(`/v1/provider-connections/${b.id}`, { method: "PATCH", body: { status: "disabled" } })).status).toBe(200)
          yield* confirm("tok_chargeDeclined")
          const refused = yield* reroute()
          expect([refused.status, refused.json.error.code]).toEqual([422, "no_provider_available"])
          expect((yield* server(`/v1/checkout/sessions/${session.id}`)).json.status).toBe("payment_failed")
        }))

      it.effect("a card number in place of a token is refused before anything keeps it", () =>
        Effect.gen(function*() {
          const { confirm, server, session } = yield* checkoutSetup()
          const refused = yield* confirm("4242424242424242")
          expect([refused.status, refused.json.error.param]).toEqual([400, "payment_method.token"])
          expect(JSON.stringify(refused.json)).not.toContain("4242424242424242")
          expect((yield* server(`/v1/checkout/sessions/${session.id}`)).json.status).toBe("open")
        }))

      it.effect("the drop-in may call a session's endpoints from the merchant's origin (CORS), and load from anywhere", () =>
        Effect.gen(function*() {
          const { baseUrl, browser, session } = yield* checkoutSetup()
          const preflight = yield* raw(`${baseUrl}/v1/checkout/sessions/${session.id}/confirm`, {
            method: "OPTIONS",
            headers: {
              origin: "https://shop.test",
              "access-control-request-method": "POST",
              "access-control-request-headers": "content-type, service-client-secret, idempotency-key"
            }
          })
          expect(preflight.status).toBe(204)
          expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
          expect(preflight.headers.get("access-control-allow-headers")).toContain("service-client-secret")
          const read = yield* browser(`/v1/checkout/sessions/${session.id}`)
          expect(read.headers.get("access-control-allow-origin")).toBe("*")
          const refused = yield* browser(`/v1/checkout/sessions/${session.id}`, { clientSecret: "nope" })
          expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([401, "*"])
          const script = yield* raw(`${baseUrl}/v1/checkout/dropin.js`)
          expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"])
          expect(script.text).toContain("Orchestrator")
          expect(script.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/i)
          // The server-key endpoints stay closed to other origins.
          expect((yield* raw(`${baseUrl}/v1/payments`, { headers: { origin: "https://shop.test" } })).headers.get("access-control-allow-origin")).toBeNull()
        }))

      it.effect("the hosted page is served with a strict policy, holds nothing of the session, and 404s a bad id", () =>
        Effect.gen(function*() {
          const { baseUrl, session } = yield* checkoutSetup()
          const page = yield* raw(`${baseUrl}/checkout/${session.id}?client_secret=${encodeURIComponent(session.client_secret)}`)
          expect(page.status).toBe(200)
          const policy = page.headers.get("content-security-policy")!
          for (const directive of ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
            expect(policy).toContain(directive)
          }
          expect(policy).not.toContain("unsafe")
          expect(page.headers.get("referrer-policy")).toBe("no-referrer")
          expect(page.text).not.toContain(session.client_secret)
          expect(page.text).not.toMatch(/<script>/)
          expect((yield* raw(`${baseUrl}/checkout/%3Cscript%3E`)).status).toBe(404)
        }))
    }
  )
}
