import { expect, layer } from "@effect/vitest"
import { SandboxLedger } from "@orchestrator/connectors"
import { EventsRepository, Organizations, ProviderConnection, ProviderConnectionsRepository, type Tenant } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect, Option } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/** Sets the sandbox's fault injection on `sandbox_a`, as an operator would. */
const setSandbox = (tenant: Tenant, settings: Record<string, unknown>) =>
  Effect.gen(function*() {
    const connections = yield* ProviderConnectionsRepository
    const connection = Option.getOrThrow(yield* connections.findByName(tenant, "sandbox_a"))
    yield* connections.update(tenant.organizationId, new ProviderConnection({ ...connection, settings }))
  })

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `payments over HTTP on ${database.name}`,
    (it) => {
      it.effect("charges a card: 201, every field present, Request-Id and Service-Version on the response", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const response = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa", { metadata: { order: "42" }, description: "Two coffees" }))
          })
          expect(response.status).toBe(201)
          expect(response.headers.get("request-id")).toMatch(/^req_/)
          expect(response.headers.get("service-version")).toBe("2026-11-01")
          const payment = response.json
          expect(payment).toMatchObject({
            object: "payment",
            status: "succeeded",
            amount: 1050,
            amount_captured: 1050,
            amount_refunded: 0,
            currency: "EUR",
            provider: "sandbox_a",
            payment_method: { type: "card", token: "tok_visa", brand: "visa", last4: "4242", country: "US" },
            customer_id: null,
            description: "Two coffees",
            metadata: { order: "42" },
            next_action: null,
            failure: null,
            livemode: false
          })
          expect(payment.id).toMatch(/^pay_[0-9A-Z]{30}$/)
          expect(payment.provider_payment_id).toMatch(/^ch_/)
          expect(payment.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          expect(payment.attempts).toHaveLength(1)
          expect(payment.attempts[0]).toMatchObject({ object: "payment_attempt", provider: "sandbox_a", status: "succeeded" })
          expect(typeof payment.attempts[0].latency_ms).toBe("number")
        }))

      it.effect("answers a decline with 402 and the failed payment inside the error", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          for (const [token, code] of [["tok_chargeDeclined", "card_declined"], ["tok_insufficientFunds", "insufficient_funds"]]) {
            const error = yield* Effect.flip(client.payments.create({
              headers: { "idempotency-key": newKey() },
              payload: paymentWith(token!)
            }))
            expect(error._tag).toBe("PaymentRefused")
            if (!("error" in error)) return
            expect(error.error).toMatchObject({ type: "payment_error", code, param: null })
            expect(error.error.request_id).toMatch(/^req_/)
            expect(error.error.payment?.status).toBe("failed")
            expect(error.error.payment?.failure?.code).toBe(code)
            expect(error.error.payment?.attempts).toHaveLength(1)
          }
        }))

      it.effect("retries a processing error once on the same connection, then reports it", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          const error = yield* Effect.flip(client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_processingError")
          }))
          if (!("error" in error)) return expect.fail(`unexpected ${error._tag}`)
          expect(error.error.code).toBe("processing_error")
          expect(error.error.payment?.attempts.map((attempt) => attempt.error_code)).toEqual([
            "processing_error",
            "processing_error"
          ])
        }))

      it.effect("goes through 3D Secure: challenge page, return URL, merchant redirect, events in order", () =>
        Effect.gen(function*() {
          const { client, secret, tenant } = yield* merchant()
          const created = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_threeDSecureRequired", { return_url: "https://shop.example/done?order=42" })
          })
          expect(created.status).toBe("requires_action")
          expect(created.next_action?.type).toBe("redirect")

          const page = yield* raw(created.next_action!.url)
          expect(page.status).toBe(200)
          expect(page.text).toContain("Complete")
          expect(page.text).toContain("10.50 EUR")

          const completed = yield* raw(`${created.next_action!.url}/complete`, { method: "POST" })
          expect(completed.status).toBe(303)
          const returnUrl = completed.headers.get("location")!
          // Our return URL, with the signed token that alone opens it.
          expect(returnUrl).toMatch(new RegExp(`/v1/payments/${created.id}/return\\?token=\\d+\\.[\\w-]{43}$`))
          expect((yield* raw(returnUrl.replace(/\?.*/, ""))).status).toBe(404)

          const back = yield* raw(returnUrl)
          expect(back.status).toBe(303)
          expect(back.headers.get("location")).toBe(`https://shop.example/done?order=42&payment_id=${created.id}`)

          const settled = yield* client.payments.retrieve({ path: { id: created.id } })
          expect([settled.status, settled.next_action]).toEqual(["succeeded", null])

          const events = yield* Effect.flatMap(EventsRepository, (repository) => repository.listRecent(tenant, 50))
          const types = events.filter((event) => (event.data.object as { id: string }).id === created.id)
            .map((event) => event.type).reverse()
          expect(types).toEqual([
            "payment.created",
            "payment.processing",
            "payment.requires_action",
            "payment.processing",
            "payment.succeeded"
          ])
          void secret
        }))

      it.effect("fails the payment when the customer fails 3D Secure", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          const created = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_threeDSecureRequired", { return_url: "https://shop.example/done" })
          })
          const failed = yield* raw(`${created.next_action!.url}/fail`, { method: "POST" })
          yield* raw(failed.headers.get("location")!)
          const payment = yield* client.payments.retrieve({ path: { id: created.id } })
          expect([payment.status, payment.failure?.code]).toEqual(["failed", "authentication_failed"])
        }))

      it.effect("refuses 3D Secure without a return_url: 422, and the payment is canceled", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          const error = yield* Effect.flip(client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_threeDSecureRequired")
          }))
          expect(error._tag).toBe("ReturnUrlRequired")
          if (!("error" in error)) return
          expect(error.error).toMatchObject({ code: "return_url_required", param: "return_url" })
          expect(error.error.payment?.status).toBe("canceled")
        }))

      it.effect("authorizes, refuses an over-capture, captures part, then refuses a second capture", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          const authorized = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa", { capture: false })
          })
          expect([authorized.status, authorized.amount_captured]).toEqual(["requires_capture", 0])
          const tooMuch = yield* Effect.flip(client.payments.capture({
            path: { id: authorized.id },
            headers: {},
            payload: { amount: 2000 }
          }))
          expect(tooMuch._tag).toBe("AmountTooLarge")
          const captured = yield* client.payments.capture({ path: { id: authorized.id }, headers: {}, payload: { amount: 800 } })
          expect([captured.status, captured.amount_captured]).toEqual(["succeeded", 800])
          const again = yield* Effect.flip(client.payments.capture({ path: { id: authorized.id }, headers: {}, payload: null }))
          expect(again._tag).toBe("PaymentStateConflict")
          const ledger = yield* SandboxLedger
          expect(yield* ledger.countCharges(authorized.id)).toBe(1)
        }))

      it.effect("captures and cancels with an empty body, as curl -X POST sends it", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          const first = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa", { capture: false })
          })
          const second = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa", { capture: false })
          })
          const capture = yield* raw(`${baseUrl}/v1/payments/${first.id}/capture`, {
            method: "POST",
            headers: { authorization: `Bearer ${secret}` }
          })
          expect([capture.status, capture.json.status, capture.json.amount_captured]).toEqual([200, "succeeded", 1050])
          const cancel = yield* raw(`${baseUrl}/v1/payments/${second.id}/cancel`, {
            method: "POST",
            headers: { authorization: `Bearer ${secret}` }
          })
          expect([cancel.status, cancel.json.status]).toEqual([200, "canceled"])
          const cancelAgain = yield* raw(`${baseUrl}/v1/payments/${second.id}/cancel`, {
            method: "POST",
            headers: { authorization: `Bearer ${secret}` }
          })
          expect([cancelAgain.status, cancelAgain.json.error.code]).toEqual([409, "payment_unexpected_state"])
          const cancelSettled = yield* raw(`${baseUrl}/v1/payments/${first.id}/cancel`, {
            method: "POST",
            headers: { authorization: `Bearer ${secret}` }
          })
          expect(cancelSettled.status).toBe(409)
        }))

      it.effect("during a PSP outage: a new payment fails with 402 (saved), a capture answers 502 and can be retried", () =>
        Effect.gen(function*() {
          const { baseUrl, secret, tenant } = yield* merchant()
          const authorized = yield* raw(`${baseUrl}/v1/payments`, {
            method: "POST",
            headers: json(secret, newKey()),
            body: JSON.stringify(paymentWith("tok_visa", { capture: false }))
          })
          yield* setSandbox(tenant, { outage: true })

          const key = newKey()
          const create = () => raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body: JSON.stringify(paymentWith("tok_visa")) })
          const failed = yield* create()
          expect([failed.status, failed.json.error.type, failed.json.error.code]).toEqual([402, "payment_error", "provider_unavailable"])
          expect(failed.json.error.payment.attempts).toHaveLength(2)
          const replayed = yield* create()
          expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([402, "true"])

          const captureKey = newKey()
          const capture = () => raw(`${baseUrl}/v1/payments/${authorized.json.id}/capture`, { method: "POST", headers: json(secret, captureKey), body: "{}" })
          const unreachable = yield* capture()
          expect([unreachable.status, unreachable.json.error.type, unreachable.json.error.payment.status]).toEqual([
            502,
            "provider_error",
            "requires_capture"
          ])
          yield* setSandbox(tenant, {})
          const captured = yield* capture()
          expect([captured.status, captured.json.status]).toEqual([200, "succeeded"])
        }))

      it.effect("forces a provider, and refuses one the organization does not have", () =>
        Effect.gen(function*() {
          const { client } = yield* merchant()
          const forced = yield* client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa", { provider: "sandbox_b" })
          })
          expect(forced.provider).toBe("sandbox_b")
          const unknown = yield* Effect.flip(client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa", { provider: "stripe_eu" })
          }))
          expect(unknown._tag).toBe("ProviderNotUsable")
          if ("error" in unknown) expect(unknown.error).toMatchObject({ code: "provider_not_usable", param: "provider" })
        }))

      it.effect("lists newest first with cursors and filters; an unknown cursor is a 400", () =>
        Effect.gen(function*() {
          const { baseUrl, client, secret } = yield* merchant()
          // A payment's customer is one of the organization's own.
          const customer = (email: string) =>
            Effect.map(raw(`${baseUrl}/v1/customers`, { method: "POST", headers: json(secret), body: JSON.stringify({ email }) }), (made) =>
              made.json.id as string)
          const [regular, other] = [yield* customer("regular@example.com"), yield* customer("other@example.com")]
          const created = []
          for (const token of ["tok_visa", "tok_chargeDeclined", "tok_visa", "tok_visa"]) {
            const result = yield* Effect.either(client.payments.create({
              headers: { "idempotency-key": newKey() },
              payload: paymentWith(token, { customer_id: token === "tok_visa" ? regular : other })
            }))
            created.push(result._tag === "Right" ? result.right.id : (result.left as any).error.payment.id)
          }
          const newest = [...created].reverse()
          const first = yield* client.payments.list({ urlParams: { limit: 3 } })
          expect([
            first.data.map((p) =>
              p.id
            ),
            first.has_more,
            first.next_cursor
          ]).toEqual([newest.slice(0, 3), true, newest[2]])
          const rest = yield* client.payments.list({ urlParams: { limit: 3, starting_after: first.next_cursor! } })
          expect([rest.data.map((p) => p.id), rest.has_more, rest.next_cursor]).toEqual([newest.slice(3), false, null])
          const failed = yield* client.payments.list({ urlParams: { status: "failed" } })
          expect(failed.data.map((p) => p.id)).toEqual([created[1]])
          const byCustomer = yield* client.payments.list({ urlParams: { customer_id: regular } })
          expect(byCustomer.data).toHaveLength(3)

          const headers = { authorization: `Bearer ${secret}` }
          const bad = yield* raw(`${baseUrl}/v1/payments?starting_after=pay_nope`, { headers })
          expect([bad.status, bad.json.error.param]).toEqual([400, "starting_after"])
          for (const limit of ["0", "101", "abc", "2.5"]) {
            const response = yield* raw(`${baseUrl}/v1/payments?limit=${limit}`, { headers })
            expect([response.status, response.json.error.param]).toEqual([400, "limit"])
          }
          const unknownFilter = yield* raw(`${baseUrl}/v1/payments?colour=red`, { headers })
          expect([unknownFilter.status, unknownFilter.json.error.code]).toEqual([400, "parameter_unknown"])
        }))

      it.effect("never shows another organization's or another mode's payment: 404", () =>
        Effect.gen(function*() {
          const owner = yield* merchant()
          const stranger = yield* merchant()
          const live = yield* merchant(true)
          const payment = yield* owner.client.payments.create({
            headers: { "idempotency-key": newKey() },
            payload: paymentWith("tok_visa")
          })
          for (const other of [stranger, live]) {
            const response = yield* raw(`${owner.baseUrl}/v1/payments/${payment.id}`, {
              headers: { authorization: `Bearer ${other.secret}` }
            })
            expect([response.status, response.json.error.code]).toEqual([404, "resource_missing"])
            const list = yield* other.client.payments.list({ urlParams: {} })
            expect(list.data.map((p) => p.id)).not.toContain(payment.id)
          }
        }))

      it.effect("a payment or checkout session for another organization's customer, or the other mode's: 404 on customer_id, nothing charged", () =>
        Effect.gen(function*() {
          const organizations = yield* Organizations
          const owner = yield* merchant()
          const stranger = yield* merchant()
          const ownersLive = yield* organizations.createKey(owner.organization.id, true)
          const customer = yield* raw(`${owner.baseUrl}/v1/customers`, {
            method: "POST",
            headers: json(owner.secret),
            body: JSON.stringify({ email: "owner-customer@example.com" })
          })
          expect(customer.status).toBe(201)
          const body = paymentWith("tok_visa", { customer_id: customer.json.id })
          for (const key of [stranger.secret, ownersLive.secret]) {
            const paid = yield* raw(`${owner.baseUrl}/v1/payments`, { method: "POST", headers: json(key, newKey()), body: JSON.stringify(body) })
            expect([paid.status, paid.json.error]).toEqual([404, {
              type: "invalid_request_error",
              code: "resource_missing",
              message: `No such customer: '${customer.json.id}'`,
              param: "customer_id",
              request_id: paid.headers.get("request-id")
            }])
            const session = yield* raw(`${owner.baseUrl}/v1/checkout/sessions`, {
              method: "POST",
              headers: json(key, newKey()),
              body: JSON.stringify({
                amount: 1050,
                currency: "EUR",
                success_url: "https://shop.example/paid",
                cancel_url: "https://shop.example/cart",
                customer_id: customer.json.id
              })
            })
            expect([session.status, session.json.error.code, session.json.error.param]).toEqual([404, "resource_missing", "customer_id"])
            const listed = yield* raw(`${owner.baseUrl}/v1/payments`, { headers: json(key) })
            expect(listed.json.data).toEqual([])
          }
          // The owner's own key pays for its own customer.
          const own = yield* raw(`${owner.baseUrl}/v1/payments`, { method: "POST", headers: json(owner.secret, newKey()), body: JSON.stringify(body) })
          expect([own.status, own.json.customer_id]).toEqual([201, customer.json.id])
        }))
    }
  )
}
