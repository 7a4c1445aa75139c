import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, type Currency, ProviderEvent, RefundOutcome } from "@orchestrator/core"
import { decodeFormBody, type FakeStripe, fakeStripe, OpenApiContract } from "@orchestrator/testing"
import { Effect, Fiber, Schema, TestClock } from "effect"
import { createHmac } from "node:crypto"
import * as net from "node:net"
import { makeStripeConnector, STRIPE_API_VERSION } from "../src/stripe/StripeConnector.js"
import { StripeSettings } from "../src/stripe/StripeSettings.js"

import { authorizeVaulted, authorizeWith, fetchHttp, merchantInitiated, pspContext, reference, revealedCard } from "./pspFixtures.js"

const SECRET_KEY = "sk_test_51FakeKeyForTests"
const WEBHOOK_SECRET = "whsec_stripe_test_secret"
const visa = { brand: "visa", last4: "4242", country: "US" }

const stripe = (fake: FakeStripe, settings: Record<string, unknown> = {}, baseUrl = fake.url) =>
  Effect.map(fetchHttp, (http) =>
    makeStripeConnector(
      http,
      pspContext({ type: "stripe", baseUrl, credentials: { secret_key: SECRET_KEY }, webhookSecret: WEBHOOK_SECRET }),
      Schema.decodeUnknownSync(StripeSettings)(settings)
    ))

const lastForm = (fake: FakeStripe) => decodeFormBody(fake.exchanges.at(-1)!.body) as Record<string, any>

/** Every request and answer so far, held against Stripe's published document. */
const contract = OpenApiContract.stripe()
const expectContract = (fake: FakeStripe) => {
  expect(fake.exchanges.length).toBeGreaterThan(0)
  for (const exchange of fake.exchanges) {
    expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
    expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
}

/** A webhook as Stripe signs it, computed here from Stripe's documentation, not by the connector. */
const signed = (body: string, secret: string, timestamp: number) =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`

describe("StripeConnector against a wire-level fake of Stripe", () => {
  it.scoped("creates and confirms a PaymentIntent in one form-encoded call, idempotent on our reference", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const request = authorizeWith("pm_card_visa", { description: "Order 7" })
      const outcome = yield* connector.authorize(request)
      expect(outcome).toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 1050, card: visa })
      const sent = fake.exchanges.at(-1)!
      expect(sent.method).toBe("POST")
      expect(sent.url).toBe("/v1/payment_intents")
      expect(sent.headers).toMatchObject({
        authorization: `Bearer ${SECRET_KEY}`,
        "stripe-version": STRIPE_API_VERSION,
        "idempotency-key": request.reference,
        "content-type": "application/x-www-form-urlencoded"
      })
      expect(sent.body).toContain(`metadata%5Breference%5D=${request.reference}`)
      expect(lastForm(fake)).toEqual({
        amount: "1050",
        currency: "eur",
        payment_method: "pm_card_visa",
        confirm: "true",
        capture_method: "automatic",
        return_url: request.returnUrl,
        description: "Order 7",
        metadata: { reference: request.reference, payment_id: "pay_1" }
      })
      // The same reference again: Stripe answers the first call; one PaymentIntent in all.
      expect(yield* connector.authorize(request)).toEqual(outcome)
      expect(fake.chargesFor(request.reference)).toBe(1)
      yield* connector.authorize(authorizeWith("pm_card_visa", { description: "x".repeat(1500) }))
      expect(lastForm(fake).description).toHaveLength(1000)
      expectContract(fake)
    }))

  it.scoped("maps Stripe's declines to our failure codes; only processing errors are retryable", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const cases = [
        ["pm_card_chargeDeclined", "card_declined", false],
        ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds", false],
        ["pm_card_chargeDeclinedExpiredCard", "expired_card", false],
        ["pm_card_chargeDeclinedIncorrectCvc", "incorrect_cvc", false],
        ["pm_card_chargeDeclinedProcessingError", "processing_error", true],
        ["pm_unknown", "invalid_payment_method", false]
      ] as const
      for (const [token, code, retryable] of cases) {
        const outcome = yield* connector.authorize(authorizeWith(token))
        expect([token, outcome]).toMatchObject([token, { _tag: "Refused", code, retryable }])
        if (token !== "pm_unknown" && outcome._tag === "Refused") expect(outcome.pspPaymentId).toMatch(/^pi_/)
      }
      // A rate limit is worth another try; Stripe's own 5xx and rejected keys mean it cannot serve us.
      fake.injectFault({ status: 429, type: "invalid_request_error", code: "rate_limit" })
      expect(yield* connector.authorize(authorizeWith("pm_card_visa"))).toMatchObject({ _tag: "Refused", code: "rate_limited", retryable: true })
      fake.injectFault({ status: 500, type: "api_error" })
      expect((yield* Effect.flip(connector.authorize(authorizeWith("pm_card_visa"))))._tag).toBe("ConnectorUnavailable")
      fake.injectFault({ status: 409, type: "idempotency_error", code: "idempotency_key_in_use" })
      expect((yield* Effect.flip(connector.authorize(authorizeWith("pm_card_visa"))))._tag).toBe("ConnectorOutcomeUnknown")
      expectContract(fake)
    }))

  it.scoped("3DS: requires_action with Stripe's redirect; after the challenge the intent is read back", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const outcome = yield* connector.authorize(authorizeWith("pm_card_threeDSecure2Required"))
      if (outcome._tag !== "ActionRequired") return expect.fail(outcome._tag)
      expect(outcome.redirectUrl).toBe(`${fake.url}/fake/3ds/${outcome.pspPaymentId}`)
      const back = yield* Effect.promise(() => fetch(outcome.redirectUrl, { redirect: "manual" }))
      expect(back.headers.get("location")).toContain(`payment_intent=${outcome.pspPaymentId}`)
      expect(yield* connector.syncPayment({ reference: "ignored", pspPaymentId: outcome.pspPaymentId }))
        .toMatchObject({ _tag: "Authorized", captured: true })
      expect(yield* connector.syncPayment({ reference: "att_none", pspPaymentId: "pi_missing" })).toEqual(AuthorizationOutcome.Unknown())
      // A failed challenge returns the intent to requires_payment_method, with the reason.
      const failing = yield* connector.authorize(authorizeWith("pm_card_threeDSecure2Required"))
      if (failing._tag !== "ActionRequired") return expect.fail(failing._tag)
      yield* Effect.promise(() => fetch(`${failing.redirectUrl}?result=fail`, { redirect: "manual" }))
      expect(yield* connector.syncPayment({ reference: "ignored", pspPaymentId: failing.pspPaymentId }))
        .toMatchObject({ _tag: "Refused", code: "authentication_failed", retryable: false })
      expectContract(fake)
    }))

  it.scoped("manual capture of part of the amount; a repeated capture answers the first; cancel; refunds", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const request = authorizeWith("pm_card_visa", { capture: false })
      const authorized = yield* connector.authorize(request)
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      expect([authorized.captured, lastForm(fake).capture_method]).toEqual([false, "manual"])
      const capture = { reference: `${request.reference}_capture`, pspPaymentId: authorized.pspPaymentId, currency: "EUR" as Currency }
      expect(yield* connector.capture({ ...capture, amount: 600 })).toEqual({ _tag: "Captured", amount: 600 })
      expect(lastForm(fake)).toEqual({ amount_to_capture: "600" })
      expect(yield* connector.capture({ ...capture, amount: 900 })).toEqual({ _tag: "Captured", amount: 600 })

      const refund = { pspPaymentId: authorized.pspPaymentId, currency: "EUR" as Currency, reason: "requested_by_customer" }
      const partial = yield* connector.refund({ ...refund, reference: "ref_partial", amount: 200 })
      expect(partial).toMatchObject({ _tag: "Succeeded" })
      expect(lastForm(fake)).toEqual({
        payment_intent: authorized.pspPaymentId,
        amount: "200",
        reason: "requested_by_customer",
        metadata: { reference: "ref_partial" }
      })
      expect(yield* connector.refund({ ...refund, reference: "ref_too_much", amount: 500 })).toMatchObject({ _tag: "Failed", code: "amount_too_large" })
      fake.pendingRefunds = true
      const pending = yield* connector.refund({ ...refund, reference: "ref_later", amount: 100 })
      if (pending._tag !== "Pending") return expect.fail(pending._tag)
      fake.settleRefund(pending.pspRefundId, "succeeded")
      // Found by its id, or by our reference among the payment's refunds when the id was lost.
      expect(yield* connector.syncRefund({ reference: "ref_later", pspRefundId: pending.pspRefundId })).toMatchObject({ _tag: "Succeeded" })
      expect(yield* connector.syncRefund({ reference: "ref_later", pspPaymentId: authorized.pspPaymentId })).toMatchObject({ _tag: "Succeeded" })
      expect(yield* connector.syncRefund({ reference: "ref_never", pspPaymentId: authorized.pspPaymentId })).toEqual(RefundOutcome.Unknown())

      const held = yield* connector.authorize(authorizeWith("pm_card_visa", { capture: false }))
      if (held._tag !== "Authorized") return expect.fail(held._tag)
      expect(yield* connector.cancel({ reference: "att_x_cancel", pspPaymentId: held.pspPaymentId })).toEqual({ _tag: "Done" })
      expect(yield* connector.cancel({ reference: "att_y_cancel", pspPaymentId: held.pspPaymentId })).toMatchObject({
        _tag: "Refused",
        code: "payment_intent_unexpected_state"
      })
      expectContract(fake)
    }))

  it.scoped("finds an intent by our reference when its id never came back (Stripe's search)", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const request = authorizeWith("pm_card_visa")
      fake.injectFault("reset")
      expect((yield* Effect.flip(connector.authorize(request)))._tag).toBe("ConnectorOutcomeUnknown")
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: null })).toMatchObject({
        _tag: "Authorized",
        captured: true
      })
      expect(yield* connector.syncPayment({ reference: "att_never_sent", pspPaymentId: null })).toEqual(AuthorizationOutcome.Unknown())
      expectContract(fake)
    }))

  it.scoped("a resend looks for the intent by our reference first (Stripe forgets keys after 24 h), and sends under the same key only when none exists", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const lost = authorizeWith("pm_card_visa")
      fake.injectFault("reset")
      expect((yield* Effect.flip(connector.authorize(lost)))._tag).toBe("ConnectorOutcomeUnknown")
      // Stripe has the intent: the resend reads it, and creates nothing.
      const before = fake.exchanges.length
      expect(yield* connector.authorize({ ...lost, resend: true })).toMatchObject({ _tag: "Authorized", captured: true })
      expect(fake.exchanges.slice(before).map((exchange) => exchange.method)).toEqual(["GET"])
      expect([fake.chargesFor(lost.reference), fake.intents.size]).toEqual([1, 1])
      // Nothing under this reference at Stripe: the resend sends it, under the same key, once.
      const neverArrived = authorizeWith("pm_card_visa")
      expect(yield* connector.authorize({ ...neverArrived, resend: true })).toMatchObject({ _tag: "Authorized", captured: true })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "POST", headers: { "idempotency-key": neverArrived.reference } })
      expect([fake.chargesFor(neverArrived.reference), fake.intents.size]).toEqual([1, 2])
      expectContract(fake)
    }))

  it.scoped("a vaulted card: the charge's network_transaction_id is read; a merchant-initiated charge goes off-session without the CVC", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const first = yield* connector.authorize(authorizeVaulted(revealedCard()))
      const schemeId = JSON.parse(fake.exchanges.at(-1)!.responseBody).charges.data[0].payment_method_details.card.network_transaction_id
      expect(schemeId).toMatch(/^\d{15}$/)
      expect(first).toMatchObject({ _tag: "Authorized", networkTransactionId: schemeId })

      expect(yield* connector.authorize(merchantInitiated("483297487231504"))).toMatchObject({ _tag: "Authorized" })
      expect((decodeFormBody(fake.exchanges.at(-2)!.body) as Record<string, any>).card).not.toHaveProperty("cvc")
      expect(lastForm(fake)).toMatchObject({ off_session: "true", confirm: "true" })
      // Stripe's 2022-04 document has no request field for an earlier scheme id: none is sent.
      expect(fake.exchanges.at(-1)!.body).not.toContain("483297487231504")
      expectContract(fake)
    }))

  it.scoped("a connection that cannot be made is unavailable; no answer in time is an unknown outcome, and the retry charges once", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const closedPort = yield* Effect.promise(() =>
        new Promise<number>((resolve) => {
          const probe = net.createServer().listen(0, "127.0.0.1", () => {
            const { port } = probe.address() as net.AddressInfo
            probe.close(() => resolve(port))
          })
        })
      )
      const unreachable = yield* stripe(fake, {}, `http://127.0.0.1:${closedPort}`)
      const refused = yield* Effect.flip(unreachable.authorize(authorizeWith("pm_card_visa")))
      expect(refused).toMatchObject({ _tag: "ConnectorUnavailable", reason: expect.stringContaining("ECONNREFUSED") })

      const connector = yield* stripe(fake, { timeout_ms: 5_000 })
      const request = authorizeWith("pm_card_visa")
      fake.injectFault("hang")
      const pending = yield* Effect.fork(connector.authorize(request))
      // Once Stripe holds the request, time runs out on the connector's clock (TestClock, no sleeping).
      yield* Effect.promise(async () => {
        while (fake.hungRequests() === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("5 seconds")
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorOutcomeUnknown", reason: expect.stringContaining("5000 ms") })
      expect(yield* connector.authorize(request)).toMatchObject({ _tag: "Authorized", captured: true })
      expect(fake.chargesFor(request.reference)).toBe(1)
    }))

  it.scoped("a wrong key is a connection problem, and a live key never serves a test connection", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const http = yield* fetchHttp
      const withKey = (secret_key: string) =>
        makeStripeConnector(
          http,
          pspContext({ type: "stripe", baseUrl: fake.url, credentials: { secret_key }, webhookSecret: WEBHOOK_SECRET }),
          Schema.decodeUnknownSync(StripeSettings)({})
        )
      expect(yield* Effect.flip(withKey("sk_test_wrong-format!").authorize(authorizeWith("pm_card_visa")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: "Stripe rejected the credentials (HTTP 401)",
        providerMessage: "Invalid API Key provided."
      })
      const live = yield* Effect.flip(withKey("sk_live_51RealKey").authorize(authorizeWith("pm_card_visa")))
      expect(live).toMatchObject({ _tag: "ConnectorUnavailable", reason: "a live Stripe key on a test connection" })
      expect(JSON.stringify(live)).not.toContain("51RealKey")
    }))

  it.scoped("currencies in Stripe's units: zero-decimal as is, ISK in hundredths, MGA whole, three-decimal ending in 0, others refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const connector = yield* stripe(fake)
      const sentAmount = (amount: number, currency: string) =>
        Effect.map(connector.authorize(authorizeWith("pm_card_visa", { amount, currency: currency as Currency })), (outcome) => {
          expect(outcome).toMatchObject({ _tag: "Authorized", amountCaptured: amount })
          return [lastForm(fake).currency, Number(lastForm(fake).amount)]
        })
      expect(yield* sentAmount(500, "JPY")).toEqual(["jpy", 500])
      expect(yield* sentAmount(5000, "UGX")).toEqual(["ugx", 5000])
      expect(yield* sentAmount(5, "ISK")).toEqual(["isk", 500])
      expect(yield* sentAmount(1200, "MGA")).toEqual(["mga", 12])
      expect(yield* sentAmount(5120, "KWD")).toEqual(["kwd", 5120])
      const before = fake.exchanges.length
      for (
        const [amount, currency, code] of [[1250, "MGA", "amount_not_representable"], [5124, "KWD", "amount_not_representable"], [
          100,
          "CLF",
          "currency_not_supported"
        ], [100, "IQD", "currency_not_supported"]] as const
      ) {
        const refused = yield* connector.authorize(authorizeWith("pm_card_visa", { amount, currency: currency as Currency }))
        expect([currency, refused]).toMatchObject([currency, { _tag: "Refused", code, retryable: false, pspPaymentId: null }])
      }
      expect(fake.exchanges.length).toBe(before)
    }))
})

describe("Stripe webhooks, verified with vectors computed from Stripe's documented scheme", () => {
  const now = 1_800_000_000
  const connectorAt = Effect.gen(function*() {
    const fake = yield* fakeStripe
    yield* TestClock.setTime(now * 1000)
    return { fake, connector: yield* stripe(fake) }
  })

  it.scoped("payment_intent.* and refund events are read; forged, stale, tampered or unsigned ones are refused", () =>
    Effect.gen(function*() {
      const { connector, fake } = yield* connectorAt
      const request = authorizeWith("pm_card_visa")
      const authorized = yield* connector.authorize(request)
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      const body = JSON.stringify({
        id: "evt_1",
        object: "event",
        type: "payment_intent.succeeded",
        data: { object: fake.intentObject(authorized.pspPaymentId) }
      })
      const deliver = (signature: string | undefined, payload = body) =>
        connector.verifyWebhook({
          body: new TextEncoder().encode(payload),
          headers: signature === undefined ? {} : { "stripe-signature": signature }
        })
      const events = yield* deliver(signed(body, WEBHOOK_SECRET, now))
      expect(events).toEqual([ProviderEvent.PaymentUpdated({
        eventId: "evt_1",
        reference: request.reference,
        pspPaymentId: authorized.pspPaymentId,
        outcome: authorized
      })])
      // Rolling secrets: several v1, one of them right.
      const rolled = `${signed(body, "whsec_old", now)},v1=${signed(body, WEBHOOK_SECRET, now).split("v1=")[1]}`
      expect(yield* deliver(rolled)).toHaveLength(1)
      const refused = [
        [signed(body, "whsec_not_it", now), "signature mismatch"],
        [signed(body, WEBHOOK_SECRET, now - 301), "signature stale"],
        [signed(body, WEBHOOK_SECRET, now + 301), "signature stale"],
        [signed(body, WEBHOOK_SECRET, now).replace(/.$/, (last) => (last === "0" ? "1" : "0")), "signature mismatch"],
        [undefined, "signature missing"],
        ["t=abc,v1=00", "signature malformed"]
      ] as const
      for (const [signature, reason] of refused) {
        expect(yield* Effect.flip(deliver(signature))).toMatchObject({ _tag: "WebhookRejected", reason })
      }
      expect((yield* Effect.flip(deliver(signed(body, WEBHOOK_SECRET, now), body.replace("evt_1", "evt_2")))).reason).toBe("signature mismatch")

      const refund = yield* connector.refund({
        reference: "ref_hook",
        pspPaymentId: authorized.pspPaymentId,
        amount: 300,
        currency: "EUR" as Currency,
        reason: null
      })
      if (refund._tag !== "Succeeded") return expect.fail(refund._tag)
      for (const type of ["charge.refund.updated", "refund.updated"]) {
        const refundEvent = fake.signedEvent(WEBHOOK_SECRET, type, fake.refundObject(refund.pspRefundId), now)
        expect(yield* deliver(refundEvent.signature, refundEvent.body)).toMatchObject([
          { _tag: "RefundUpdated", reference: "ref_hook", pspRefundId: refund.pspRefundId, outcome: { _tag: "Succeeded" } }
        ])
      }
      const other = fake.signedEvent(WEBHOOK_SECRET, "customer.created", { id: "cus_1", object: "customer" }, now)
      expect(yield* deliver(other.signature, other.body)).toEqual([])
    }))
})

describe("the Stripe contract validator itself", () => {
  it("rejects requests the document does not allow", () => {
    const valid = {
      method: "POST",
      url: "/v1/payment_intents",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "amount=1050&currency=eur&confirm=true"
    }
    expect(contract.checkRequest(valid)).toEqual([])
    const wrong = [
      { ...valid, body: "currency=eur" },
      { ...valid, body: "amount=ten&currency=eur" },
      { ...valid, body: "amount=1050&currency=eur&capture_method=later" },
      { ...valid, body: "amount=1050&currency=eur&colour=red" },
      { ...valid, url: "/v1/payment_intent" },
      { ...valid, method: "PUT" },
      { method: "GET", url: "/v1/payment_intents/search?limit=1", headers: {}, body: "" }
    ]
    for (const request of wrong) expect([request, contract.checkRequest(request).length > 0]).toEqual([request, true])
    expect(
      contract.checkResponse({
        method: "POST",
        url: "/v1/payment_intents",
        status: 200,
        responseBody: JSON.stringify({ id: "pi_1", object: "payment_intent" })
      }).length
    )
      .toBeGreaterThan(0)
    expect(reference()).toMatch(/^att_/)
  })
})
