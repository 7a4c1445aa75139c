import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, type Currency, ProviderEvent, RefundOutcome } from "@orchestrator/core"
import { type FakeMollie, fakeMollie, OpenApiContract } from "@orchestrator/testing"
import { Effect, Either, Fiber, Schema, TestClock } from "effect"
import { toMollieAmount } from "../src/mollie/Amounts.js"
import { makeMollieConnector, mollieDefinition } from "../src/mollie/Connector.js"
import { MollieSettings } from "../src/mollie/Settings.js"

import { authorizeWith, fetchHttp, pspContext, RETURN_URL } from "./pspFixtures.js"

const API_KEY = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"
const WEBHOOK_URL = "https://orchestrator.test/v1/provider-webhooks/pcn_mollie"
const EUR = "EUR" as Currency

const mollie = (fake: FakeMollie, options: { settings?: Record<string, unknown>; apiKey?: string; webhookUrl?: string } = {}) =>
  Effect.map(fetchHttp, (http) =>
    makeMollieConnector(
      http,
      {
        ...pspContext({ type: "mollie", baseUrl: fake.url, credentials: { api_key: options.apiKey ?? API_KEY }, webhookSecret: "" }),
        webhookUrl: options.webhookUrl ?? WEBHOOK_URL
      },
      Schema.decodeUnknownSync(MollieSettings)(options.settings ?? {})
    ))

const lastBody = (fake: FakeMollie) => JSON.parse(fake.exchanges.at(-1)!.body)

/** Every request and answer so far, held against Mollie's published document. */
const contract = OpenApiContract.mollie()
const expectContract = (fake: FakeMollie) => {
  expect(fake.exchanges.length).toBeGreaterThan(0)
  for (const exchange of fake.exchanges) {
    expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
    expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
}

const webhook = (body: string) => ({ body: new TextEncoder().encode(body), headers: { "content-type": "application/x-www-form-urlencoded" } })

describe("MollieConnector against a wire-level fake of Mollie", () => {
  it("writes amounts as decimal strings with exactly the currency's decimals, from the integer's digits", () => {
    const value = (amount: number, currency: string) => Either.map(toMollieAmount(amount, currency as Currency), (each) => each.value)
    expect(value(1050, "EUR")).toEqual(Either.right("10.50"))
    expect(value(5, "EUR")).toEqual(Either.right("0.05"))
    expect(value(0, "EUR")).toEqual(Either.right("0.00"))
    expect(value(1050, "JPY")).toEqual(Either.right("1050"))
    expect(value(999999999999, "GBP")).toEqual(Either.right("9999999999.99"))
    expect(value(1234, "KWD")).toMatchObject(Either.left({ code: "currency_not_supported" }))
  })

  it.scoped("creates a payment in one JSON call under our reference, and sends the customer to Mollie's checkout", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      const request = authorizeWith("tkn_3ds", { description: "Order 7" })
      const outcome = yield* connector.authorize(request)
      if (outcome._tag !== "ActionRequired") return expect.fail(outcome._tag)
      expect(outcome.pspPaymentId).toMatch(/^tr_/)
      expect(outcome.redirectUrl).toBe(`${fake.url}/fake/3ds/${outcome.pspPaymentId}`)
      const sent = fake.exchanges.at(-1)!
      expect([sent.method, sent.url]).toEqual(["POST", "/v2/payments"])
      expect(sent.headers).toMatchObject({
        authorization: `Bearer ${API_KEY}`,
        "idempotency-key": request.reference,
        "content-type": "application/json"
      })
      expect(lastBody(fake)).toEqual({
        amount: { currency: "EUR", value: "10.50" },
        description: "Order 7",
        redirectUrl: RETURN_URL,
        webhookUrl: WEBHOOK_URL,
        method: "creditcard",
        cardToken: "tkn_3ds",
        metadata: { reference: request.reference, payment_id: "pay_1" }
      })
      // The same reference again: Mollie answers the first call; one payment in all.
      expect(yield* connector.authorize(request)).toEqual(outcome)
      expect(fake.paymentsFor(request.reference)).toBe(1)
      // The customer pays on the checkout page and is sent back to our return URL, query intact.
      const back = yield* Effect.promise(() => fetch(outcome.redirectUrl, { redirect: "manual" }))
      expect(back.headers.get("location")).toBe(RETURN_URL)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: outcome.pspPaymentId }))
        .toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 1050, card: { brand: "visa", last4: "4242", country: "NL" } })
      // Without its id (the answer was lost), the payment is found by our reference among the newest.
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: null }))
        .toMatchObject({ _tag: "Authorized", pspPaymentId: outcome.pspPaymentId })
      expect(yield* connector.syncPayment({ reference: "att_none", pspPaymentId: null })).toEqual(AuthorizationOutcome.Unknown())
      expect(yield* connector.syncPayment({ reference: "att_none", pspPaymentId: "tr_missing" })).toEqual(AuthorizationOutcome.Unknown())
      expectContract(fake)
    }))

  it.scoped("amounts in the currency's decimals (JPY none, EUR two), a description always, iDEAL without a token", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      yield* connector.authorize(authorizeWith("tkn_paid", { amount: 1050, currency: "JPY" as Currency }))
      expect(lastBody(fake)).toMatchObject({ amount: { currency: "JPY", value: "1050" }, description: "pay_1" })
      yield* connector.authorize(authorizeWith("tkn_paid", { amount: 7, description: "x".repeat(300) }))
      expect(lastBody(fake).amount).toEqual({ currency: "EUR", value: "0.07" })
      expect(lastBody(fake).description).toHaveLength(255)
      const ideal = yield* connector.authorize(authorizeWith("", { paymentMethod: { type: "ideal", token: null } }))
      expect(ideal._tag).toBe("ActionRequired")
      expect(lastBody(fake)).not.toHaveProperty("cardToken")
      expect(lastBody(fake).method).toBe("ideal")
      // Nothing is sent for what Mollie cannot take.
      const before = fake.exchanges.length
      expect(yield* connector.authorize(authorizeWith("tkn_paid", { amount: 1000, currency: "KWD" as Currency })))
        .toMatchObject({ _tag: "Refused", code: "currency_not_supported" })
      expect(fake.exchanges.length).toBe(before)
      expectContract(fake)
    }))

  it.scoped("failed payments map Mollie's status reasons to our codes; rate limits retry; Mollie's 5xx is unavailable", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      const cases = [
        ["tkn_declined", "card_declined"],
        ["tkn_insufficient_funds", "insufficient_funds"],
        ["tkn_expired_card", "expired_card"]
      ] as const
      for (const [token, code] of cases) {
        const outcome = yield* connector.authorize(authorizeWith(token))
        expect([token, outcome]).toMatchObject([token, { _tag: "Refused", code, retryable: false, pspPaymentId: expect.stringMatching(/^tr_/) }])
        // Mollie's words stay on the attempt record; the message is ours.
        if (outcome._tag === "Refused") expect(outcome.message).not.toContain("fake Mollie")
      }
      expect(yield* connector.authorize(authorizeWith("not-a-token"))).toMatchObject({ _tag: "Refused", code: "invalid_payment_method" })
      const checkout = yield* connector.authorize(authorizeWith("tkn_3ds"))
      if (checkout._tag !== "ActionRequired") return expect.fail(checkout._tag)
      yield* Effect.promise(() => fetch(`${checkout.redirectUrl}?result=canceled`, { redirect: "manual" }))
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: checkout.pspPaymentId })).toMatchObject({ _tag: "Refused", code: "canceled" })
      fake.injectFault({ status: 429, title: "Too Many Requests" })
      expect(yield* connector.authorize(authorizeWith("tkn_paid"))).toMatchObject({ _tag: "Refused", code: "rate_limited", retryable: true })
      fake.injectFault({ status: 503, title: "Service Unavailable" })
      expect((yield* Effect.flip(connector.authorize(authorizeWith("tkn_paid"))))._tag).toBe("ConnectorUnavailable")
      expectContract(fake)
    }))

  it.scoped("manual capture: authorized, then captured in part; cancel releases an authorization or deletes an open payment", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      const request = authorizeWith("tkn_paid", { capture: false })
      const authorized = yield* connector.authorize(request)
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      expect([authorized.captured, authorized.amountCaptured, lastBody(fake).captureMode]).toEqual([false, 0, "manual"])
      const capture = { reference: `${request.reference}_capture`, pspPaymentId: authorized.pspPaymentId, currency: EUR }
      expect(yield* connector.capture({ ...capture, amount: 600 })).toEqual({ _tag: "Captured", amount: 600 })
      expect(fake.exchanges.at(-1)).toMatchObject({
        url: `/v2/payments/${authorized.pspPaymentId}/captures`,
        headers: { "idempotency-key": capture.reference }
      })
      expect(lastBody(fake).amount).toEqual({ currency: "EUR", value: "6.00" })
      // A capture sent again under its reference answers the first, whatever the amount now says.
      expect(yield* connector.capture({ ...capture, amount: 600 })).toEqual({ _tag: "Captured", amount: 600 })
      expect(fake.captures).toHaveLength(1)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: authorized.pspPaymentId }))
        .toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 600 })

      const other = yield* connector.authorize(authorizeWith("tkn_paid", { capture: false }))
      if (other._tag !== "Authorized") return expect.fail(other._tag)
      expect(yield* connector.cancel({ reference: "att_other_cancel", pspPaymentId: other.pspPaymentId })).toEqual({ _tag: "Pending" })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "POST", url: `/v2/payments/${other.pspPaymentId}/release-authorization`, status: 202 })
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: other.pspPaymentId })).toMatchObject({ _tag: "Refused", code: "canceled" })
      const open = yield* connector.authorize(authorizeWith("tkn_3ds"))
      if (open._tag !== "ActionRequired") return expect.fail(open._tag)
      expect(yield* connector.cancel({ reference: "att_open_cancel", pspPaymentId: open.pspPaymentId })).toEqual({ _tag: "Done" })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "DELETE", url: `/v2/payments/${open.pspPaymentId}` })
      // A paid payment cannot be canceled: Mollie refuses, we say so in our words.
      const paid = yield* connector.authorize(authorizeWith("tkn_paid"))
      if (paid._tag !== "Authorized") return expect.fail(paid._tag)
      expect(yield* connector.cancel({ reference: "att_paid_cancel", pspPaymentId: paid.pspPaymentId }))
        .toMatchObject({ _tag: "Refused", code: "invalid_request" })
      expectContract(fake)
    }))

  it.scoped("refunds in part and in full under our reference, read back by id or by reference; too much is refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      const paid = yield* connector.authorize(authorizeWith("tkn_paid"))
      if (paid._tag !== "Authorized") return expect.fail(paid._tag)
      const refund = { pspPaymentId: paid.pspPaymentId, currency: EUR, reason: "requested_by_customer" }
      const partial = yield* connector.refund({ ...refund, reference: "ref_partial", amount: 250 })
      if (partial._tag !== "Pending") return expect.fail(partial._tag)
      expect(lastBody(fake)).toEqual({
        amount: { currency: "EUR", value: "2.50" },
        description: "requested by customer",
        metadata: { reference: "ref_partial" }
      })
      fake.settleRefund(partial.pspRefundId, "refunded")
      expect(yield* connector.syncRefund({ reference: "ref_partial", pspPaymentId: paid.pspPaymentId, pspRefundId: partial.pspRefundId }))
        .toEqual(RefundOutcome.Succeeded({ pspRefundId: partial.pspRefundId }))
      expect(yield* connector.syncRefund({ reference: "ref_partial", pspPaymentId: paid.pspPaymentId }))
        .toEqual(RefundOutcome.Succeeded({ pspRefundId: partial.pspRefundId }))
      expect(yield* connector.syncRefund({ reference: "ref_none", pspPaymentId: paid.pspPaymentId })).toEqual(RefundOutcome.Unknown())
      expect(yield* connector.refund({ ...refund, reference: "ref_too_much", amount: 900 })).toMatchObject({ _tag: "Failed", code: "invalid_amount" })
      const rest = yield* connector.refund({ ...refund, reason: null, reference: "ref_rest", amount: 800 })
      expect(rest._tag).toBe("Pending")
      fake.settleRefund((rest as { pspRefundId: string }).pspRefundId, "failed")
      expect(yield* connector.syncRefund({ reference: "ref_rest", pspPaymentId: paid.pspPaymentId }))
        .toMatchObject({ _tag: "Failed", code: "refund_failed" })
      expectContract(fake)
    }))

  it.scoped("webhooks carry only an id: the payment is fetched with our key and that is the news; unknown or foreign ids are refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake)
      const request = authorizeWith("tkn_pending")
      const pending = yield* connector.authorize(request)
      if (pending._tag !== "Pending") return expect.fail(pending._tag)
      fake.settle(pending.pspPaymentId, "paid")
      const events = yield* connector.verifyWebhook(webhook(fake.webhookBody(pending.pspPaymentId)))
      // The payment, then its refunds and chargebacks (paid: Mollie tells of both through the payment's webhook).
      expect(fake.exchanges.slice(-3).map((exchange) => exchange.url)).toEqual([
        `/v2/payments/${pending.pspPaymentId}`,
        `/v2/payments/${pending.pspPaymentId}/refunds?limit=250`,
        `/v2/payments/${pending.pspPaymentId}/chargebacks?limit=250`
      ])
      expect(events).toEqual([ProviderEvent.PaymentUpdated({
        eventId: `${pending.pspPaymentId}:paid:1050`,
        reference: request.reference,
        pspPaymentId: pending.pspPaymentId,
        outcome: AuthorizationOutcome.Authorized({
          pspPaymentId: pending.pspPaymentId,
          captured: true,
          amountCaptured: 1050,
          card: { brand: "visa", last4: "4242", country: "NL" }
        })
      })])
      // Refunds are told through their payment's webhook, once final.
      const refunded = yield* connector.refund({ reference: "ref_1", pspPaymentId: pending.pspPaymentId, amount: 50, currency: EUR, reason: null })
      fake.settleRefund((refunded as { pspRefundId: string }).pspRefundId, "refunded")
      const again = yield* connector.verifyWebhook(webhook(fake.webhookBody(pending.pspPaymentId)))
      expect(again.map((event) => [event._tag, "reference" in event ? event.reference : null])).toEqual([["PaymentUpdated", request.reference], [
        "RefundUpdated",
        "ref_1"
      ]])

      const refused = (body: string) => Effect.map(Effect.flip(connector.verifyWebhook(webhook(body))), (error) => error.reason)
      expect(yield* refused(fake.webhookBody("tr_Unknown1"))).toBe("Mollie knows no payment tr_Unknown1 for this connection")
      expect(yield* refused("id=re_Fake1")).toContain("not a Mollie webhook")
      expect(yield* refused("{\"id\":\"tr_Fake00001\"}")).toContain("not a Mollie webhook")
      // A payment of the same Mollie account made by someone else carries none of our references.
      const foreign = yield* Effect.promise(() =>
        fetch(`${fake.url}/v2/payments`, {
          method: "POST",
          headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ amount: { currency: "EUR", value: "1.00" }, description: "elsewhere", redirectUrl: "https://shop.test" })
        }).then((response) => response.json() as Promise<{ id: string }>)
      )
      expect(yield* refused(fake.webhookBody(foreign.id))).toBe(`${foreign.id} was not made by this service`)
      // Mollie cannot be asked: refused, so Mollie sends it again later.
      const unreachable = yield* mollie(fake, { apiKey: "live_wrongModeKey123" })
      expect(yield* Effect.map(Effect.flip(unreachable.verifyWebhook(webhook(fake.webhookBody(pending.pspPaymentId)))), (error) => error.reason))
        .toContain("could not be asked")
      expectContract(fake)
    }))

  it.scoped("no answer in time is an unknown outcome; the resend finds the payment by our reference and creates none", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* mollie(fake, { settings: { timeout_ms: 5_000 } })
      const request = authorizeWith("tkn_paid")
      fake.injectFault("hang")
      const pending = yield* Effect.fork(connector.authorize(request))
      // Once Mollie holds the request, time runs out on the connector's clock (TestClock, no sleeping).
      yield* Effect.promise(async () => {
        while (fake.hungRequests() === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("5 seconds")
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorOutcomeUnknown", reason: expect.stringContaining("5000 ms") })
      expect(yield* connector.authorize({ ...request, resend: true })).toMatchObject({ _tag: "Authorized", captured: true })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "GET", url: "/v2/payments?limit=250" })
      // Sent again without the search (a client's retry): the idempotency key answers the first.
      expect(yield* connector.authorize(request)).toMatchObject({ _tag: "Authorized", captured: true })
      expect(fake.paymentsFor(request.reference)).toBe(1)
    }))

  it.scoped("the key's prefix is its mode: a live key never serves a test connection, refused when saved and before any call", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const definition = mollieDefinition(yield* fetchHttp)
      expect(definition.credentialsProblem?.({ api_key: "live_abcdefghijklmnop" }, false))
        .toEqual({ key: "api_key", reason: "a live_ key on a test-mode connection; use the profile's test_ key" })
      expect(definition.credentialsProblem?.({ api_key: "test_abcdefghijklmnop" }, true)?.reason).toContain("test_ key on a live-mode connection")
      expect(definition.credentialsProblem?.({ api_key: "access_abcdefghijklmnop" }, false)?.reason).toContain("starts with test_ or live_")
      expect(definition.credentialsProblem?.({ api_key: API_KEY }, false)).toBeUndefined()
      const live = yield* mollie(fake, { apiKey: "live_RealSecretKey123" })
      const error = yield* Effect.flip(live.authorize(authorizeWith("tkn_paid")))
      expect(error).toMatchObject({ _tag: "ConnectorUnavailable", reason: expect.stringContaining("live_ key on a test-mode connection") })
      expect(JSON.stringify(error)).not.toContain("RealSecretKey")
      expect(fake.exchanges).toHaveLength(0)
      const wrong = yield* mollie(fake, { apiKey: "test_x" })
      expect(yield* Effect.flip(wrong.authorize(authorizeWith("tkn_paid")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: "Mollie rejected the API key (HTTP 401)"
      })
    }))
})
