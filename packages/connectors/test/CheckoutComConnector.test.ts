import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, type Currency, ProviderEvent, RefundOutcome } from "@orchestrator/core"
import { checkoutComSignature, checkoutComToken, type FakeCheckoutCom, fakeCheckoutCom, OpenApiContract, testConnection } from "@orchestrator/testing"
import { Effect, Fiber, Schema, TestClock } from "effect"
import { createHmac } from "node:crypto"
import { makeCheckoutComConnector } from "../src/checkoutcom/Connector.js"
import { CheckoutComSettings } from "../src/checkoutcom/Settings.js"
import { authorizeWith, fetchHttp, pspContext } from "./pspFixtures.js"

const SECRET_KEY = "sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e"
const SIGNATURE_KEY = "whsk_checkout_signature_key_for_tests"
const visa = { brand: "visa", last4: "4242", country: "GB" }

const checkout = (fake: FakeCheckoutCom, options: { readonly livemode?: boolean; readonly baseUrl?: string | null; readonly key?: string } = {}) =>
  Effect.map(fetchHttp, (http) => {
    const context = pspContext({
      type: "checkout_com",
      baseUrl: fake.url,
      credentials: { secret_key: options.key ?? SECRET_KEY },
      webhookSecret: SIGNATURE_KEY,
      ...(options.livemode === undefined ? {} : { livemode: options.livemode })
    })
    return makeCheckoutComConnector(
      http,
      options.baseUrl === undefined ? context : { ...context, connection: testConnection({ ...context.connection, base_url: options.baseUrl }) },
      Schema.decodeUnknownSync(CheckoutComSettings)({ processing_channel_id: fake.processingChannelId })
    )
  })

const token = (name: string) => authorizeWith(checkoutComToken(name))
const lastBody = (fake: FakeCheckoutCom) => JSON.parse(fake.exchanges.at(-1)!.body)
const eur = "EUR" as Currency
const NO_SUCH_PAYMENT = `pay_${"nosuchpayment".padEnd(26, "0")}`

/** Every request and answer so far, held against Checkout.com's published NAS document. */
const contract = OpenApiContract.checkoutCom()
const expectContract = (fake: FakeCheckoutCom) => {
  expect(fake.exchanges.length).toBeGreaterThan(0)
  for (const exchange of fake.exchanges) {
    const body = exchange.body === "" ? null : JSON.parse(exchange.body)
    expect([exchange.method, exchange.url, body, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, body, []])
    // The document answers GET /payments/{id} with oneOf a payment or a payout, and a payment's
    // details fit both (ids and statuses alike): the payment's schema is the one that must hold.
    const problems = exchange.method === "GET" && /^\/payments\/[^/]+$/.test(exchange.url) && exchange.status === 200
      ? contract.checkSchema("components/schemas/PaymentDetails", JSON.parse(exchange.responseBody))
      : contract.checkResponse(exchange)
    expect([exchange.url, exchange.status, problems]).toEqual([exchange.url, exchange.status, []])
  }
}

describe("CheckoutComConnector against a wire-level fake of Checkout.com's Unified Payments API", () => {
  it.scoped("POST /payments with a token or a stored source, our reference as Cko-Idempotency-Key, Bearer key", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      const request = authorizeWith(checkoutComToken("approved"), {
        description: "Order 7",
        customer: { id: "cus_1", email: "ada@example.com", name: "Ada" }
      })
      const outcome = yield* connector.authorize(request)
      expect(outcome).toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 1050, card: visa })
      const sent = fake.exchanges.at(-1)!
      expect([sent.method, sent.url]).toEqual(["POST", "/payments"])
      expect(sent.headers).toMatchObject({
        authorization: `Bearer ${SECRET_KEY}`,
        "cko-idempotency-key": request.reference,
        "content-type": "application/json"
      })
      expect(lastBody(fake)).toEqual({
        source: { type: "token", token: checkoutComToken("approved") },
        amount: 1050,
        currency: "EUR",
        reference: request.reference,
        capture: true,
        processing_channel_id: fake.processingChannelId,
        payment_type: "Regular",
        description: "Order 7",
        customer: { email: "ada@example.com", name: "Ada" },
        "3ds": { enabled: true },
        success_url: request.returnUrl,
        failure_url: request.returnUrl,
        metadata: { capture: "automatic", payment_id: "pay_1" }
      })
      // The same attempt again: Checkout.com answers it as the first time, one payment.
      expect(yield* connector.authorize(request)).toEqual(outcome)
      expect(fake.paymentsFor(request.reference)).toBe(1)
      // A stored card, off session, authorized only.
      const stored = authorizeWith(checkoutComToken("approved", "src"), { capture: false, offSession: true, storedCredential: "subsequent" })
      expect(yield* connector.authorize(stored)).toMatchObject({ _tag: "Authorized", captured: false, amountCaptured: 0 })
      expect(lastBody(fake)).toMatchObject({
        source: { type: "id", id: checkoutComToken("approved", "src") },
        capture: false,
        payment_type: "Recurring",
        merchant_initiated: true,
        metadata: { capture: "manual" }
      })
      expect(lastBody(fake)["3ds"]).toBeUndefined()
      expect(lastBody(fake).success_url).toBeUndefined()
      // Not a Checkout.com token: refused before anything is sent.
      const before = fake.exchanges.length
      expect(yield* connector.authorize(authorizeWith("pm_card_visa"))).toMatchObject({ _tag: "Refused", code: "invalid_payment_method", pspPaymentId: null })
      expect(fake.exchanges.length).toBe(before)
      expectContract(fake)
    }))

  it.scoped("declines are 201 approved:false, mapped from response_code; 4xx and 5xx by kind; PSP words kept, never shown", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      for (
        const [name, code, retryable, providerMessage] of [
          ["declined", "card_declined", false, "20005 Declined - Do Not Honour"],
          ["nofunds", "insufficient_funds", false, "20051 Insufficient Funds"],
          ["expired", "expired_card", false, "20054 Expired Card"],
          ["badcvv", "incorrect_cvc", false, "20087 Bad Track Data"],
          ["fraud", "fraudulent", false, "20059 Suspected Fraud"],
          ["issuerdown", "processing_error", true, "20091 Issuer Unavailable"]
        ] as const
      ) {
        const outcome = yield* connector.authorize(token(name))
        expect([name, outcome]).toMatchObject([name, { _tag: "Refused", code, retryable, providerMessage, pspPaymentId: expect.stringMatching(/^pay_/) }])
        if (outcome._tag === "Refused") expect(outcome.message).not.toContain("Honour")
        // The details say Declined; the reason comes from the payment's actions.
        expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: outcome._tag === "Refused" ? outcome.pspPaymentId : null }))
          .toMatchObject({ _tag: "Refused", code })
      }
      expect(yield* connector.authorize(token("unknowncard"))).toMatchObject({
        _tag: "Refused",
        code: "invalid_payment_method",
        message: "The payment method is not valid at this provider.",
        providerMessage: expect.stringContaining("token_invalid")
      })
      fake.injectFault({ status: 502 })
      expect((yield* Effect.flip(connector.authorize(token("approved"))))._tag).toBe("ConnectorUnavailable")
      const unauthorized = yield* Effect.flip((yield* checkout(fake, { key: "sk_sbox_wrongformat-" })).authorize(token("approved")))
      expect(unauthorized).toMatchObject({ _tag: "ConnectorUnavailable", reason: "Checkout.com rejected the credentials (HTTP 401)" })
      fake.injectFault({ status: 429, error_codes: [] })
      expect((yield* Effect.flip(connector.authorize(token("approved"))))._tag).toBe("ConnectorOutcomeUnknown")
      expectContract(fake)
      // A live key on a test connection never leaves.
      const live = yield* checkout(fake, { key: "sk_m73dzbpy7cf3gfd46xr4yj5xo4e" })
      expect(yield* Effect.flip(live.authorize(token("approved")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: expect.stringContaining("live Checkout.com key")
      })
      // A key of the previous account structure (ABC) belongs to another API.
      const abc = yield* checkout(fake, { key: "sk_test_0a1b2c3d-0000-4000-8000-000000000000" })
      expect(yield* Effect.flip(abc.authorize(token("approved")))).toMatchObject({ _tag: "ConnectorUnavailable", reason: expect.stringContaining("ABC") })
    }))

  it.scoped("3DS: 202 with _links.redirect is ActionRequired; the customer comes back and GET /payments/{id} tells", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      const request = token("threeds")
      const outcome = yield* connector.authorize(request)
      if (outcome._tag !== "ActionRequired") return expect.fail(outcome._tag)
      expect(outcome.redirectUrl).toBe(`${fake.url}/fake/3ds/${outcome.pspPaymentId}`)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: outcome.pspPaymentId }))
        .toMatchObject({ _tag: "ActionRequired", pspPaymentId: outcome.pspPaymentId })
      const back = yield* Effect.promise(() => fetch(outcome.redirectUrl, { redirect: "manual" }))
      const returned = new URL(back.headers.get("location")!)
      expect(returned.searchParams.get("cko-session-id")).toMatch(/^sid_/)
      returned.searchParams.delete("cko-session-id")
      expect(returned.toString()).toBe(request.returnUrl)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: outcome.pspPaymentId }))
        .toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 1050, card: visa })
      // A failed challenge: declined with Checkout.com's 3DS code.
      const failing = yield* connector.authorize(token("threeds"))
      if (failing._tag !== "ActionRequired") return expect.fail(failing._tag)
      yield* Effect.promise(() => fetch(`${failing.redirectUrl}?result=fail`, { redirect: "manual" }))
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: failing.pspPaymentId }))
        .toMatchObject({ _tag: "Refused", code: "authentication_failed", providerMessage: "20151 Cardholder failed 3DS authentication" })
      // Pending without a page: news later.
      const later = yield* connector.authorize(token("pending"))
      expect(later).toMatchObject({ _tag: "Pending", pspPaymentId: expect.stringMatching(/^pay_/) })
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: NO_SUCH_PAYMENT })).toEqual(AuthorizationOutcome.Unknown())
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: null })).toEqual(AuthorizationOutcome.Unknown())
      expectContract(fake)
    }))

  it.scoped("captures, voids and refunds: 202 and an action_id, Done when the payment shows it, Pending while Checkout.com works", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      const authorized = yield* connector.authorize(authorizeWith(checkoutComToken("approved"), { capture: false }))
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      const psp = authorized.pspPaymentId
      expect(yield* connector.capture({ reference: "att_1_capture", pspPaymentId: psp, amount: 600, currency: eur })).toEqual({ _tag: "Captured", amount: 600 })
      const capture = fake.exchanges.find((exchange) => exchange.url.endsWith("/captures"))!
      expect([JSON.parse(capture.body), capture.headers["cko-idempotency-key"]]).toEqual([{ amount: 600, reference: "att_1_capture" }, "att_1_capture"])
      // Captured already: Checkout.com forbids another (403), our code says why.
      expect(yield* connector.capture({ reference: "att_1_capture2", pspPaymentId: psp, amount: 100, currency: eur }))
        .toMatchObject({ _tag: "Refused", code: "payment_intent_unexpected_state" })
      const refund = yield* connector.refund({ reference: "ref_1", pspPaymentId: psp, amount: 200, currency: eur, reason: "requested_by_customer" })
      expect(refund).toMatchObject({ _tag: "Succeeded", pspRefundId: expect.stringMatching(/^act_/) })
      const refundCall = fake.exchanges.find((exchange) => exchange.url.endsWith("/refunds"))!
      expect(JSON.parse(refundCall.body)).toEqual({ amount: 200, reference: "ref_1", metadata: { reason: "requested_by_customer" } })
      expect(yield* connector.syncRefund({ reference: "ref_1", pspPaymentId: psp })).toEqual(refund)
      expect(yield* connector.syncRefund({ reference: "ref_none", pspPaymentId: psp })).toEqual(RefundOutcome.Unknown())
      expect(yield* connector.refund({ reference: "ref_2", pspPaymentId: psp, amount: 500, currency: eur, reason: null }))
        .toMatchObject({ _tag: "Failed", code: "payment_intent_unexpected_state", providerMessage: expect.stringContaining("refund_amount_exceeds_balance") })

      // While Checkout.com has not carried them out yet: Pending, settled by webhook or a later sync.
      fake.holdActions(true)
      const second = yield* connector.authorize(authorizeWith(checkoutComToken("approved"), { capture: false }))
      if (second._tag !== "Authorized") return expect.fail(second._tag)
      expect(yield* connector.cancel({ reference: "att_2_cancel", pspPaymentId: second.pspPaymentId })).toEqual({ _tag: "Pending" })
      fake.settleActions()
      expect(yield* connector.syncPayment({ reference: "x", pspPaymentId: second.pspPaymentId })).toMatchObject({ _tag: "Refused", code: "canceled" })
      const third = yield* connector.authorize(authorizeWith(checkoutComToken("approved"), { capture: false }))
      if (third._tag !== "Authorized") return expect.fail(third._tag)
      expect(yield* connector.capture({ reference: "att_3_capture", pspPaymentId: third.pspPaymentId, amount: 1050, currency: eur })).toEqual({
        _tag: "Pending"
      })
      fake.settleActions()
      const pendingRefund = yield* connector.refund({ reference: "ref_3", pspPaymentId: third.pspPaymentId, amount: 1050, currency: eur, reason: null })
      expect(pendingRefund).toMatchObject({ _tag: "Pending", pspRefundId: expect.stringMatching(/^act_/) })
      fake.settleActions()
      expect(
        yield* connector.syncRefund({
          reference: "ref_3",
          pspPaymentId: third.pspPaymentId,
          pspRefundId: pendingRefund._tag === "Pending" ? pendingRefund.pspRefundId : null
        })
      )
        .toMatchObject({ _tag: "Succeeded" })
      fake.holdActions(false)
      // A void without an authorization to void: refused, not an outage.
      expect(yield* connector.cancel({ reference: "att_4_cancel", pspPaymentId: third.pspPaymentId })).toMatchObject({
        _tag: "Refused",
        code: "payment_intent_unexpected_state"
      })
      expect(yield* connector.capture({ reference: "att_5_capture", pspPaymentId: NO_SUCH_PAYMENT, amount: 1, currency: eur }))
        .toMatchObject({ _tag: "Refused", code: "invalid_request" })
      expectContract(fake)
    }))

  it.scoped("amounts in Checkout.com's units: full value, thousandths ending in 0, hundredths; never rounded", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      for (
        const [amount, currency, value] of [[500, "JPY", 500], [1500, "CLP", 150000], [1230, "KWD", 1230], [100000, "BHD", 100000], [1200, "USD", 1200], [
          7,
          "ISK",
          7
        ]] as const
      ) {
        expect([currency, yield* connector.authorize({ ...token("approved"), amount, currency: currency as Currency })]).toMatchObject([currency, {
          _tag: "Authorized"
        }])
        expect([currency, lastBody(fake).amount]).toEqual([currency, value])
      }
      const sent = fake.exchanges.length
      for (const [amount, currency] of [[1235, "KWD"], [12345, "CLF"], [1_000_000_000, "EUR"]] as const) {
        expect([currency, yield* connector.authorize({ ...token("approved"), amount, currency: currency as Currency })])
          .toMatchObject([currency, {
            _tag: "Refused",
            code: "amount_not_representable",
            pspPaymentId: null,
            message: expect.stringContaining("Checkout.com")
          }])
      }
      expect(yield* connector.capture({ reference: "c", pspPaymentId: "pay_x", amount: 1001, currency: "OMR" as Currency })).toMatchObject({
        _tag: "Refused",
        code: "amount_not_representable"
      })
      expect(fake.exchanges.length).toBe(sent)
      expectContract(fake)
    }))

  it.scoped("no answer in time is an unknown outcome; the same attempt again is answered once; live connections", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      const request = token("approved")
      fake.injectFault("hang")
      const pending = yield* Effect.fork(connector.authorize(request))
      yield* Effect.promise(async () => {
        while (fake.hungRequests() === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("30 seconds")
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorOutcomeUnknown", timedOut: true })
      expect(yield* connector.authorize({ ...request, resend: true })).toMatchObject({ _tag: "Authorized" })
      expect(fake.paymentsFor(request.reference)).toBe(1)
      fake.injectFault("reset")
      expect((yield* Effect.flip(connector.authorize(token("approved"))))._tag).toBe("ConnectorOutcomeUnknown")
      // A live connection takes a live key only; a sandbox key never serves it.
      const live = yield* checkout(fake, { livemode: true, baseUrl: null })
      expect(yield* Effect.flip(live.authorize(token("approved")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: expect.stringContaining("sandbox Checkout.com key")
      })
    }))
})

describe("Checkout.com webhooks: Cko-Signature, hex HMAC-SHA256 of the raw body", () => {
  /** Computed here from Checkout.com's documentation, not by the fake nor the connector. */
  const signed = (body: string, key = SIGNATURE_KEY) => createHmac("sha256", key).update(body).digest("hex")

  it.scoped("payment and refund events in the port's terms; forged, tampered and unsigned bodies refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = yield* checkout(fake)
      const request = authorizeWith(checkoutComToken("approved"), { capture: false })
      const authorized = yield* connector.authorize(request)
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      const psp = authorized.pspPaymentId
      yield* connector.capture({ reference: `${request.reference}_capture`, pspPaymentId: psp, amount: 700, currency: eur })
      const refund = yield* connector.refund({ reference: "ref_9", pspPaymentId: psp, amount: 300, currency: eur, reason: null })
      if (refund._tag !== "Succeeded") return expect.fail(refund._tag)
      const deliver = (body: string, signature: string | null = signed(body)) =>
        connector.verifyWebhook({ body: new TextEncoder().encode(body), headers: signature === null ? {} : { "cko-signature": signature } })

      const approved = fake.event("payment_approved", psp)
      expect(checkoutComSignature(SIGNATURE_KEY, approved)).toBe(signed(approved))
      expect(contract.checkSchema("components/schemas/get-event-response", JSON.parse(approved))).toEqual([])
      expect(yield* deliver(approved)).toEqual([ProviderEvent.PaymentUpdated({
        eventId: JSON.parse(approved).id,
        reference: request.reference,
        pspPaymentId: psp,
        outcome: AuthorizationOutcome.Authorized({ pspPaymentId: psp, captured: false, amountCaptured: 0, card: visa })
      })])
      const captureAction = fake.payments.get(psp)!.actions.find((action) => action.type === "Capture")!
      expect(yield* deliver(fake.event("payment_captured", psp, captureAction.id))).toMatchObject([
        { _tag: "PaymentUpdated", pspPaymentId: psp, outcome: { _tag: "Authorized", captured: true, amountCaptured: 700 } }
      ])
      expect(yield* deliver(fake.event("payment_refunded", psp, refund.pspRefundId))).toMatchObject([
        { _tag: "RefundUpdated", pspRefundId: refund.pspRefundId, outcome: { _tag: "Succeeded", pspRefundId: refund.pspRefundId } }
      ])
      expect(yield* deliver(fake.event("payment_refund_declined", psp, refund.pspRefundId))).toMatchObject([
        { _tag: "RefundUpdated", outcome: { _tag: "Failed", code: "refund_failed" } }
      ])
      expect(yield* deliver(fake.event("payment_capture_declined", psp, captureAction.id))).toMatchObject([
        { _tag: "PaymentUpdated", outcome: { _tag: "Refused", code: "capture_failed" } }
      ])
      expect(yield* deliver(fake.event("payment_voided", psp))).toMatchObject([{ outcome: { _tag: "Refused", code: "canceled" } }])
      const declinedPayment = yield* connector.authorize(token("nofunds"))
      if (declinedPayment._tag !== "Refused") return expect.fail(declinedPayment._tag)
      expect(yield* deliver(fake.event("payment_declined", declinedPayment.pspPaymentId!))).toMatchObject([
        { outcome: { _tag: "Refused", code: "insufficient_funds", providerMessage: "20051 Insufficient Funds" } }
      ])
      expect(yield* deliver(fake.event("payment_pending", psp))).toEqual([])
      expect(yield* deliver(fake.event("dispute_received", psp))).toEqual([])

      for (
        const [body, signature, reason] of [
          [approved, signed(approved, "another key"), "signature mismatch"],
          [approved.replace(`"amount":1050`, `"amount":1`), signed(approved), "signature mismatch"],
          [approved, null, "signature missing"],
          [approved, "", "signature missing"],
          ["{}", signed("{}"), "the body is not a Checkout.com event"]
        ] as const
      ) {
        expect(yield* Effect.flip(deliver(body, signature))).toMatchObject({ _tag: "WebhookRejected", reason })
      }
      // Upper-case hex is the same signature.
      expect(yield* deliver(approved, signed(approved).toUpperCase())).toHaveLength(1)
    }))
})

describe("the Checkout.com contract validator itself", () => {
  it("rejects requests and answers the document does not allow", () => {
    const valid = {
      method: "POST",
      url: "/payments",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: { type: "token", token: checkoutComToken("approved") }, amount: 1, currency: "EUR", processing_channel_id: "pc_x" })
    }
    expect(contract.checkRequest(valid)).toEqual([])
    const body = JSON.parse(valid.body)
    for (
      const wrong of [
        { ...body, processing_channel_id: undefined },
        { ...body, amount: 10.5 },
        { ...body, capture: "yes" },
        { ...body, reference: "x".repeat(51) }
      ]
    ) {
      expect([wrong, contract.checkRequest({ ...valid, body: JSON.stringify(wrong) }).length > 0]).toEqual([wrong, true])
    }
    expect(contract.checkRequest({ ...valid, url: "/payments/pay_x/capture" }).length).toBeGreaterThan(0)
    expect(
      contract.checkResponse({
        method: "POST",
        url: "/payments/pay_abcdefghijklmnopqrstuvwxyz/captures",
        status: 202,
        responseBody: JSON.stringify({ status: "done" })
      }).length
    )
      .toBeGreaterThan(0)
    expect(contract.checkResponse({ method: "POST", url: "/payments", status: 201, responseBody: JSON.stringify({ id: "pay_x", approved: true }) }).length)
      .toBeGreaterThan(0)
  })
})
