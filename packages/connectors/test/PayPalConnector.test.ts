import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, type Currency, ProviderEvent, RefundOutcome } from "@orchestrator/core"
import { fakePayPal } from "@orchestrator/testing"
import { Effect, Either, Fiber, TestClock } from "effect"
import * as net from "node:net"
import { fromPayPalMoney, toPayPalMoney } from "../src/paypal/Amounts.js"
import { paypalDefinition } from "../src/paypal/Connector.js"
import { makeTokenCache } from "../src/paypal/Token.js"
import { approveAt, expectPayPalContract, paypal, paypalPayment, WEBHOOK_ID, webhookEventErrors } from "./paypalFixtures.js"
import { fetchHttp, RETURN_URL } from "./pspFixtures.js"

const body = (text: string) => JSON.parse(text) as Record<string, any>

describe("PayPalConnector against a wire-level fake of PayPal", () => {
  it.scoped("creates an order under our reference and sends the payer to its approve link", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      const request = paypalPayment({ description: "x".repeat(300) })
      const outcome = yield* connector.authorize(request)
      if (outcome._tag !== "ActionRequired") return expect.fail(outcome._tag)
      expect(outcome.redirectUrl).toBe(`${fake.url}/fake/3ds/approve/${outcome.pspPaymentId}`)
      const sent = fake.exchanges.at(-1)!
      expect([sent.method, sent.url]).toEqual(["POST", "/v2/checkout/orders"])
      expect(sent.headers).toMatchObject({ "paypal-request-id": request.reference, "content-type": "application/json" })
      expect(sent.headers.authorization).toMatch(/^Bearer A21AA/)
      expect(body(sent.body)).toEqual({
        intent: "CAPTURE",
        purchase_units: [{
          reference_id: request.reference,
          custom_id: request.reference,
          amount: { currency_code: "EUR", value: "10.50" },
          description: "x".repeat(127)
        }],
        payment_source: {
          paypal: { experience_context: { return_url: RETURN_URL, cancel_url: RETURN_URL, user_action: "PAY_NOW", shipping_preference: "NO_SHIPPING" } }
        }
      })
      // The same reference again: PayPal answers the first order; one order in all, one token for both.
      expect(yield* connector.authorize(request)).toEqual(outcome)
      expect(fake.ordersFor(request.reference)).toBe(1)
      expect(fake.tokensIssued()).toBe(1)
      // A card is not PayPal's to take.
      expect(yield* connector.authorize({ ...request, paymentMethod: { type: "card", token: "tok_visa" } }))
        .toMatchObject({ _tag: "Refused", code: "invalid_payment_method" })
      expectPayPalContract(fake)
    }))

  it.scoped("back from approval, the order is captured (intent CAPTURE) once, however often it is synced", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      const request = paypalPayment()
      const created = yield* connector.authorize(request)
      if (created._tag !== "ActionRequired") return expect.fail(created._tag)
      // Before the payer approves, the order still waits for them.
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })).toEqual(created)
      const back = yield* approveAt(created.redirectUrl)
      // PayPal appends its own `token` (the order) and PayerID; ours comes first and is kept.
      expect(back.searchParams.getAll("token")).toEqual([new URL(RETURN_URL).searchParams.get("token"), created.pspPaymentId])
      const synced = yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })
      expect(synced).toEqual(AuthorizationOutcome.Authorized({
        pspPaymentId: created.pspPaymentId,
        captured: true,
        amountCaptured: 1050,
        card: { brand: null, last4: null, country: null }
      }))
      const capture = fake.exchanges.find((exchange) => exchange.url.endsWith("/capture"))!
      expect(capture.headers["paypal-request-id"]).toBe(`${request.reference}-capture`)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })).toEqual(synced)
      expect(fake.orders.get(created.pspPaymentId)!.captures).toHaveLength(1)
      expect(yield* connector.syncPayment({ reference: "att_x", pspPaymentId: "NOSUCHORDER" })).toEqual(AuthorizationOutcome.Unknown())
      expect(yield* connector.syncPayment({ reference: "att_x", pspPaymentId: null })).toEqual(AuthorizationOutcome.Unknown())
      expectPayPalContract(fake)
    }))

  it.scoped("manual capture: the approved order is authorized, then captured for less, refunded in parts, voided when not captured", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      const request = paypalPayment({ capture: false })
      const created = yield* connector.authorize(request)
      if (created._tag !== "ActionRequired") return expect.fail(created._tag)
      expect(body(fake.exchanges.at(-1)!.body).intent).toBe("AUTHORIZE")
      yield* approveAt(created.redirectUrl)
      const orderId = created.pspPaymentId
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: orderId }))
        .toMatchObject({ _tag: "Authorized", captured: false, amountCaptured: 0, pspPaymentId: orderId })
      const captured = yield* connector.capture({ reference: "cap_1", pspPaymentId: orderId, amount: 800, currency: "EUR" as Currency })
      expect(captured).toEqual({ _tag: "Captured", amount: 800 })
      const captureCall = fake.exchanges.find((exchange) => exchange.url.includes("/v2/payments/authorizations/"))!
      expect([captureCall.headers["paypal-request-id"], body(captureCall.body)])
        .toEqual(["cap_1", { amount: { currency_code: "EUR", value: "8.00" }, final_capture: true }])
      // The same capture again answers the first one.
      expect(yield* connector.capture({ reference: "cap_1", pspPaymentId: orderId, amount: 800, currency: "EUR" as Currency })).toEqual(captured)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: orderId }))
        .toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 800 })

      const refund = yield* connector.refund({ reference: "rfd_1", pspPaymentId: orderId, amount: 300, currency: "EUR" as Currency, reason: null })
      if (refund._tag !== "Succeeded") return expect.fail(refund._tag)
      expect(body(fake.exchanges.at(-1)!.body)).toEqual({ amount: { currency_code: "EUR", value: "3.00" }, custom_id: "rfd_1" })
      expect(yield* connector.syncRefund({ reference: "rfd_1", pspRefundId: refund.pspRefundId })).toEqual(refund)
      expect(yield* connector.syncRefund({ reference: "rfd_x", pspRefundId: null })).toEqual(RefundOutcome.Unknown())
      const tooMuch = yield* connector.refund({ reference: "rfd_2", pspPaymentId: orderId, amount: 600, currency: "EUR" as Currency, reason: null })
      expect(tooMuch).toMatchObject({ _tag: "Failed", code: "invalid_amount", message: "The amount was refused by the card issuer." })
      if (tooMuch._tag === "Failed") expect(tooMuch.providerMessage).toContain("REFUND_AMOUNT_EXCEEDED")
      expect(yield* connector.refund({ reference: "rfd_3", pspPaymentId: orderId, amount: 500, currency: "EUR" as Currency, reason: null }))
        .toMatchObject({ _tag: "Succeeded" })

      // Another authorization, voided instead; voiding again is done already.
      const other = paypalPayment({ capture: false })
      const second = yield* connector.authorize(other)
      if (second._tag !== "ActionRequired") return expect.fail(second._tag)
      // Never approved: nothing to void at PayPal, and nothing is sent.
      const before = fake.exchanges.length
      expect(yield* connector.cancel({ reference: "can_0", pspPaymentId: second.pspPaymentId })).toEqual({ _tag: "Done" })
      expect(fake.exchanges.slice(before).map((exchange) => exchange.method)).toEqual(["GET"])
      yield* approveAt(second.redirectUrl)
      yield* connector.syncPayment({ reference: other.reference, pspPaymentId: second.pspPaymentId })
      expect(yield* connector.cancel({ reference: "can_1", pspPaymentId: second.pspPaymentId })).toEqual({ _tag: "Done" })
      expect(fake.orders.get(second.pspPaymentId)!.authorizations[0]!.status).toBe("VOIDED")
      expect(yield* connector.cancel({ reference: "can_1", pspPaymentId: second.pspPaymentId })).toEqual({ _tag: "Done" })
      expect(yield* connector.syncPayment({ reference: other.reference, pspPaymentId: second.pspPaymentId }))
        .toMatchObject({ _tag: "Refused", code: "canceled" })
      // A captured order cannot be voided.
      expect(yield* connector.cancel({ reference: "can_2", pspPaymentId: orderId })).toMatchObject({ _tag: "Refused" })
      expectPayPalContract(fake)
    }))

  it.scoped("a declined funding source and PayPal's request for the payer are mapped; PayPal's words stay out of our message", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      const run = Effect.fn(function*(funding: string) {
        const request = paypalPayment()
        const created = yield* connector.authorize(request)
        if (created._tag !== "ActionRequired") return yield* Effect.die(created._tag)
        yield* approveAt(created.redirectUrl, funding)
        return yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })
      })
      const declined = yield* run("declined")
      expect(declined).toMatchObject({ _tag: "Refused", code: "payment_method_declined", retryable: false })
      if (declined._tag === "Refused") {
        expect(declined.providerMessage).toContain("INSTRUMENT_DECLINED")
        expect(declined.message).not.toContain("INSTRUMENT_DECLINED")
      }
      const payerAction = yield* run("payer_action")
      if (payerAction._tag !== "ActionRequired") return expect.fail(payerAction._tag)
      expect(payerAction.redirectUrl).toContain("/fake/3ds/approve/")
      expect(yield* run("pending")).toMatchObject({ _tag: "Pending" })
      // PayPal's rate limit is worth another try; its 5xx means it cannot serve us now.
      fake.injectFault({ status: 429, issue: "RATE_LIMIT_REACHED" })
      expect(yield* connector.authorize(paypalPayment())).toMatchObject({ _tag: "Refused", code: "rate_limited", retryable: true })
      fake.injectFault({ status: 500, issue: "INTERNAL_SERVER_ERROR" })
      expect(yield* Effect.flip(connector.authorize(paypalPayment()))).toMatchObject({ _tag: "ConnectorUnavailable" })
      fake.injectFault({ status: 422, issue: "PREVIOUS_REQUEST_IN_PROGRESS" })
      expect((yield* Effect.flip(connector.authorize(paypalPayment())))._tag).toBe("ConnectorOutcomeUnknown")
    }))

  it("amounts are decimal strings with the currency's decimals at PayPal, never floats", () => {
    const money = (amount: number, currency: string) => toPayPalMoney(amount, currency as Currency)
    expect(money(1050, "EUR")).toEqual(Either.right({ currency_code: "EUR", value: "10.50" }))
    expect(money(5, "EUR")).toEqual(Either.right({ currency_code: "EUR", value: "0.05" }))
    expect(money(1000, "JPY")).toEqual(Either.right({ currency_code: "JPY", value: "1000" }))
    // HUF has two decimals in ISO 4217 and none at PayPal: whole forints only.
    expect(money(1000, "HUF")).toEqual(Either.right({ currency_code: "HUF", value: "10" }))
    expect(money(1050, "HUF")).toMatchObject(Either.left({ code: "amount_not_representable" }))
    expect(money(123_456_789_012, "USD")).toEqual(Either.right({ currency_code: "USD", value: "1234567890.12" }))
    expect(fromPayPalMoney({ currency_code: "EUR", value: "10.5" })).toBe(1050)
    expect(fromPayPalMoney({ currency_code: "EUR", value: "0.07" })).toBe(7)
    expect(fromPayPalMoney({ currency_code: "JPY", value: "1000" })).toBe(1000)
    expect(fromPayPalMoney({ currency_code: "EUR", value: "1.005" })).toBeUndefined()
  })

  it.scoped("JPY and EUR orders carry the right decimals, which the fake (and PayPal) would refuse otherwise", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      for (const [currency, amount, value] of [["JPY", 1000, "1000"], ["EUR", 1999, "19.99"]] as const) {
        const request = paypalPayment({ amount, currency: currency as Currency })
        const created = yield* connector.authorize(request)
        if (created._tag !== "ActionRequired") return expect.fail(created._tag)
        expect(body(fake.exchanges.at(-1)!.body).purchase_units[0].amount).toEqual({ currency_code: currency, value })
        yield* approveAt(created.redirectUrl)
        expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId }))
          .toMatchObject({ _tag: "Authorized", amountCaptured: amount })
      }
      expectPayPalContract(fake)
    }))

  it.scoped("one access token serves every call until it expires by the clock; a refused token is replaced", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const tokens = makeTokenCache()
      const connector = yield* paypal(fake, undefined, { tokens })
      yield* connector.authorize(paypalPayment())
      // Another connector of the same connection (as each call makes one) shares the cache.
      yield* (yield* paypal(fake, undefined, { tokens })).authorize(paypalPayment())
      expect(fake.tokensIssued()).toBe(1)
      // The fake's token lives 32 400 s; it is given up 60 s early.
      yield* TestClock.adjust("32339 seconds")
      yield* connector.authorize(paypalPayment())
      expect(fake.tokensIssued()).toBe(1)
      yield* TestClock.adjust("2 seconds")
      yield* connector.authorize(paypalPayment())
      expect(fake.tokensIssued()).toBe(2)
      // PayPal stops taking it early: that call cannot be made, the next one fetches a new token.
      fake.revokeTokens()
      expect(yield* Effect.flip(connector.authorize(paypalPayment()))).toMatchObject({ _tag: "ConnectorUnavailable" })
      expect(yield* connector.authorize(paypalPayment())).toMatchObject({ _tag: "ActionRequired" })
      expect(fake.tokensIssued()).toBe(3)
      // Wrong credentials: the connection cannot be used, and no order is created.
      const wrong = yield* paypal(fake, undefined, { secret: "nope" })
      expect(yield* Effect.flip(wrong.authorize(paypalPayment())))
        .toMatchObject({ _tag: "ConnectorUnavailable", reason: "PayPal rejected the credentials (HTTP 401)" })
    }))

  it.scoped("webhooks are verified through verify-webhook-signature; forged, unsigned or unconfigured ones are refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake)
      const request = paypalPayment()
      const created = yield* connector.authorize(request)
      if (created._tag !== "ActionRequired") return expect.fail(created._tag)
      yield* approveAt(created.redirectUrl, "pending")
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: created.pspPaymentId })).toMatchObject({ _tag: "Pending" })
      const resource = fake.settleCapture(created.pspPaymentId, "COMPLETED")
      const delivery = fake.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.COMPLETED", resource)
      expect(webhookEventErrors(delivery.body)).toEqual([])
      const incoming = (text: string, headers: Record<string, string>) => ({ body: new TextEncoder().encode(text), headers })
      const events = yield* connector.verifyWebhook(incoming(delivery.body, delivery.headers))
      expect(events).toEqual([ProviderEvent.PaymentUpdated({
        eventId: body(delivery.body).id,
        reference: request.reference,
        pspPaymentId: created.pspPaymentId,
        outcome: AuthorizationOutcome.Authorized({
          pspPaymentId: created.pspPaymentId,
          captured: true,
          amountCaptured: 1050,
          card: { brand: null, last4: null, country: null }
        })
      })])
      const verification = fake.exchanges.at(-1)!
      expect(body(verification.body)).toMatchObject({ webhook_id: WEBHOOK_ID, transmission_id: delivery.headers["paypal-transmission-id"] })

      // Forged: the amount changed after signing, a signature made up, the header missing.
      const tampered = delivery.body.replace("\"10.50\"", "\"1.00\"")
      expect(yield* Effect.flip(connector.verifyWebhook(incoming(tampered, delivery.headers))))
        .toMatchObject({ _tag: "WebhookRejected", reason: "signature mismatch" })
      expect(yield* Effect.flip(connector.verifyWebhook(incoming(delivery.body, { ...delivery.headers, "paypal-transmission-sig": "Zm9yZ2Vk" }))))
        .toMatchObject({ _tag: "WebhookRejected", reason: "signature mismatch" })
      const { ["paypal-transmission-sig"]: _, ...unsigned } = delivery.headers
      expect(yield* Effect.flip(connector.verifyWebhook(incoming(delivery.body, unsigned)))).toMatchObject({ _tag: "WebhookRejected" })
      // Signed for another webhook of the account: not ours.
      const elsewhere = fake.webhook("OTHERWEBHOOK1", "PAYMENT.CAPTURE.COMPLETED", resource)
      expect(yield* Effect.flip(connector.verifyWebhook(incoming(elsewhere.body, elsewhere.headers)))).toMatchObject({ _tag: "WebhookRejected" })
      const unconfigured = yield* paypal(fake, {})
      expect(yield* Effect.flip(unconfigured.verifyWebhook(incoming(delivery.body, delivery.headers))))
        .toMatchObject({ _tag: "WebhookRejected", reason: expect.stringContaining("webhook_id") })

      // A refund's webhook names it by our reference.
      const manual = paypalPayment()
      const order = yield* connector.authorize(manual)
      if (order._tag !== "ActionRequired") return expect.fail(order._tag)
      yield* approveAt(order.redirectUrl)
      yield* connector.syncPayment({ reference: manual.reference, pspPaymentId: order.pspPaymentId })
      const refund = yield* connector.refund({ reference: "rfd_w", pspPaymentId: order.pspPaymentId, amount: 100, currency: "EUR" as Currency, reason: null })
      if (refund._tag !== "Succeeded") return expect.fail(refund._tag)
      const refunded = fake.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.REFUNDED", fake.refundResource(refund.pspRefundId))
      expect(yield* connector.verifyWebhook(incoming(refunded.body, refunded.headers))).toMatchObject([
        { _tag: "RefundUpdated", reference: "rfd_w", pspRefundId: refund.pspRefundId, outcome: { _tag: "Succeeded" } }
      ])
      expectPayPalContract(fake)
    }))

  it.scoped("a create that times out is reconciled under the same PayPal-Request-Id: one order", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      const connector = yield* paypal(fake, { webhook_id: WEBHOOK_ID, timeout_ms: 5_000 })
      yield* connector.authorize(paypalPayment()) // a token first: the hang is on the order
      const request = paypalPayment()
      fake.injectFault("hang")
      const pending = yield* Effect.fork(connector.authorize(request))
      yield* Effect.promise(async () => {
        while (fake.hungRequests() === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("5 seconds")
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorOutcomeUnknown", timedOut: true })
      // Without the order's id there is nothing to look up; the create is sent again and answered as the first.
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: null })).toEqual(AuthorizationOutcome.Unknown())
      expect(yield* connector.authorize({ ...request, resend: true })).toMatchObject({ _tag: "ActionRequired" })
      expect(fake.ordersFor(request.reference)).toBe(1)
    }))

  it.scoped("a token call that gets no answer leaves the payment untouched: unavailable, never unknown", () =>
    Effect.gen(function*() {
      const fake = yield* fakePayPal
      // A host that takes the connection and never answers.
      const sockets = new Set<net.Socket>()
      const silent = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<net.Server>((resolve) => {
            const server = net.createServer((socket) => void sockets.add(socket))
            server.listen(0, "127.0.0.1", () => resolve(server))
          })
        ),
        (server) =>
          Effect.promise(() =>
            new Promise<void>((resolve) => {
              for (const socket of sockets) socket.destroy()
              server.close(() => resolve())
            })
          )
      )
      const port = (silent.address() as net.AddressInfo).port
      const connector = yield* paypal(fake, { timeout_ms: 5_000 }, { baseUrl: `http://127.0.0.1:${port}` })
      const pending = yield* Effect.fork(connector.authorize(paypalPayment()))
      yield* Effect.promise(async () => {
        while (sockets.size === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("5 seconds")
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorUnavailable", reason: expect.stringContaining("access token") })
    }))

  it.effect("the connection type: cards never, live calls to PayPal's live host only", () =>
    Effect.gen(function*() {
      const definition = paypalDefinition(yield* fetchHttp)
      expect(definition.paymentMethods).toEqual(["paypal"])
      expect(definition.liveHosts).toEqual(["api-m.paypal.com"])
      expect(definition.credentialKeys.map((each) => each.key)).toEqual(["client_id", "client_secret"])
    }))
})
