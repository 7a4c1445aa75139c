import { describe, expect, it } from "@effect/vitest"
import { AuthorizationOutcome, type Currency, ProviderEvent, RefundOutcome } from "@orchestrator/core"
import { type FakeAdyen, fakeAdyen, OpenApiContract, testConnection } from "@orchestrator/testing"
import { Effect, Fiber, Schema, TestClock } from "effect"
import { createHmac } from "node:crypto"
import { ADYEN_API_VERSION, makeAdyenConnector } from "../src/adyen/AdyenConnector.js"
import { AdyenSettings } from "../src/adyen/AdyenSettings.js"
import { authorizeVaulted, authorizeWith, fetchHttp, merchantInitiated, pspContext, revealedCard } from "./pspFixtures.js"

const API_KEY = "AQEfakeApiKeyForTests"
/** An HMAC key as Adyen's Customer Area shows it: 64 hex characters. */
const HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"

const adyen = (fake: FakeAdyen, options: { readonly livemode?: boolean; readonly baseUrl?: string } = {}) =>
  Effect.map(fetchHttp, (http) =>
    makeAdyenConnector(
      http,
      pspContext({
        type: "adyen",
        baseUrl: options.baseUrl ?? fake.url,
        credentials: { api_key: API_KEY, merchant_account: fake.merchantAccount },
        webhookSecret: HMAC_KEY,
        ...(options.livemode === undefined ? {} : { livemode: options.livemode })
      }),
      Schema.decodeUnknownSync(AdyenSettings)({})
    ))

const lastBody = (fake: FakeAdyen) => JSON.parse(fake.exchanges.at(-1)!.body)

const contract = OpenApiContract.adyenCheckout()
const webhooks = OpenApiContract.adyenWebhooks()
const expectContract = (fake: FakeAdyen) => {
  expect(fake.exchanges.length).toBeGreaterThan(0)
  for (const exchange of fake.exchanges) {
    expect([exchange.url, JSON.parse(exchange.body), contract.checkRequest(exchange)]).toEqual([exchange.url, JSON.parse(exchange.body), []])
    expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
}

const stored = (id: string) => authorizeWith(id, { customer: { id: "cus_1", email: null, name: null } })

describe("AdyenConnector against a wire-level fake of Adyen Checkout v71", () => {
  it.scoped("authorises with /payments: our attempt id as reference and idempotency key, the API key header, a stored card", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const request = stored("visa_ok")
      const outcome = yield* connector.authorize(request)
      expect(outcome).toMatchObject({
        _tag: "Authorized",
        captured: true,
        amountCaptured: 1050,
        card: { brand: "visa", last4: "1111" }
      })
      const sent = fake.exchanges.at(-1)!
      expect(sent.url).toBe(`/${ADYEN_API_VERSION}/payments`)
      expect(sent.headers).toMatchObject({ "x-api-key": API_KEY, "idempotency-key": request.reference, "content-type": "application/json" })
      expect(lastBody(fake)).toEqual({
        amount: { value: 1050, currency: "EUR" },
        reference: request.reference,
        merchantAccount: fake.merchantAccount,
        paymentMethod: { type: "scheme", storedPaymentMethodId: "visa_ok" },
        returnUrl: request.returnUrl,
        channel: "Web",
        shopperInteraction: "Ecommerce",
        shopperReference: "cus_1",
        recurringProcessingModel: "CardOnFile",
        authenticationData: { threeDSRequestData: { nativeThreeDS: "disabled" } },
        metadata: { capture: "automatic", payment_id: "pay_1" }
      })
      expect(yield* connector.authorize(request)).toEqual(outcome)
      expect(fake.paymentsFor(request.reference)).toBe(1)
      // Encrypted card fields from Adyen's Web Components pass through untouched.
      const encrypted = JSON.stringify({
        type: "scheme",
        encryptedCardNumber: "test_4111111111111111",
        encryptedExpiryMonth: "test_03",
        encryptedExpiryYear: "test_2030",
        encryptedSecurityCode: "test_737"
      })
      expect(yield* connector.authorize(authorizeWith(encrypted, { capture: false }))).toMatchObject({ _tag: "Authorized", captured: false })
      expect(lastBody(fake)).toMatchObject({ paymentMethod: JSON.parse(encrypted), additionalData: { manualCapture: "true" }, metadata: { capture: "manual" } })
      expect(yield* connector.authorize(authorizeWith("{not json"))).toMatchObject({ _tag: "Refused", code: "invalid_payment_method" })
      expectContract(fake)
    }))

  it.scoped("maps resultCode and refusal reasons; HTTP errors by kind", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      for (
        const [card, code, retryable] of [
          ["visa_refused", "card_declined", false],
          ["visa_no_funds", "insufficient_funds", false],
          ["visa_expired", "expired_card", false],
          ["visa_cvc", "incorrect_cvc", false],
          ["visa_acquirer_error", "processing_error", true]
        ] as const
      ) {
        expect([card, yield* connector.authorize(stored(card))]).toMatchObject([card, { _tag: "Refused", code, retryable }])
      }
      expect(yield* connector.authorize(stored("visa_pending"))).toMatchObject({ _tag: "Pending" })
      // Our message for the code; Adyen's own words are kept for the attempt record only.
      expect(yield* connector.authorize(stored("visa_unknown"))).toMatchObject({
        _tag: "Refused",
        code: "invalid_request",
        message: "The payment provider refused the request.",
        providerMessage: expect.stringContaining("803")
      })
      fake.injectFault({ status: 500, errorCode: "000" })
      expect((yield* Effect.flip(connector.authorize(stored("visa_ok"))))._tag).toBe("ConnectorUnavailable")
      fake.injectFault({ status: 401, errorCode: "000" })
      expect(yield* Effect.flip(connector.authorize(stored("visa_ok")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: "Adyen rejected the credentials (HTTP 401)"
      })
      fake.injectFault({ status: 422, errorCode: "704" })
      expect((yield* Effect.flip(connector.authorize(stored("visa_ok"))))._tag).toBe("ConnectorOutcomeUnknown")
      expectContract(fake)
    }))

  it.scoped("a vaulted card: additionalData.networkTxReference is read; a merchant-initiated charge sends the first one with ContAuth, no CVC", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const first = yield* connector.authorize(authorizeVaulted(revealedCard()))
      const schemeId = JSON.parse(fake.exchanges.at(-1)!.responseBody).additionalData.networkTxReference
      expect(schemeId).toMatch(/^\d{15}$/)
      expect(first).toMatchObject({ _tag: "Authorized", networkTransactionId: schemeId })
      expect(lastBody(fake)).not.toHaveProperty("additionalData")

      // The card's first authorization may have been at another PSP: its scheme id links this charge to it.
      expect(yield* connector.authorize(merchantInitiated("483297487231504"))).toMatchObject({ _tag: "Authorized" })
      expect(lastBody(fake)).toMatchObject({
        shopperInteraction: "ContAuth",
        recurringProcessingModel: "Subscription",
        additionalData: { networkTxReference: "483297487231504" }
      })
      expect(lastBody(fake).paymentMethod).not.toHaveProperty("cvc")
      yield* connector.authorize({ ...merchantInitiated("483297487231504"), capture: false })
      expect(lastBody(fake).additionalData).toEqual({ manualCapture: "true", networkTxReference: "483297487231504" })

      // The customer there: no merchant-initiated link, even for a card that has one.
      yield* connector.authorize(authorizeVaulted(revealedCard({ cvc: null, networkTransactionId: "483297487231504" })))
      expect(lastBody(fake)).toMatchObject({ shopperInteraction: "Ecommerce" })
      expect(lastBody(fake)).not.toHaveProperty("additionalData")
      expectContract(fake)
    }))

  it.scoped("3DS2 in its redirect flow: RedirectShopper, then /payments/details with the shopper's redirectResult", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const request = stored("visa_3ds")
      const outcome = yield* connector.authorize(request)
      if (outcome._tag !== "ActionRequired") return expect.fail(outcome._tag)
      const back = yield* Effect.promise(() => fetch(outcome.redirectUrl, { redirect: "manual" }))
      const returned = new URL(back.headers.get("location")!)
      const redirectResult = returned.searchParams.get("redirectResult")!
      // Back to our URL as given, its token included, with Adyen's parameter added.
      returned.searchParams.delete("redirectResult")
      expect(returned.toString()).toBe(request.returnUrl)
      const completion = { reference: request.reference, pspPaymentId: outcome.pspPaymentId, amount: 1050, currency: "EUR" as Currency, capture: true }
      // Parameters that are not Adyen's are not passed on; forged ones teach nothing.
      expect(yield* connector.completeAction!({ ...completion, details: { utm: "x" } })).toEqual(AuthorizationOutcome.Unknown())
      expect(yield* connector.completeAction!({ ...completion, details: { redirectResult: "forged" } })).toEqual(AuthorizationOutcome.Unknown())
      const completed = yield* connector.completeAction!({ ...completion, details: { redirectResult, utm: "x" } })
      expect(completed).toMatchObject({ _tag: "Authorized", pspPaymentId: outcome.pspPaymentId, captured: true })
      expect(lastBody(fake)).toEqual({ details: { redirectResult } })
      // A reload of the return page sends the same details under the same key: the same answer.
      expect(yield* connector.completeAction!({ ...completion, details: { redirectResult } })).toEqual(completed)
      expect(yield* connector.syncPayment({ reference: request.reference, pspPaymentId: outcome.pspPaymentId })).toEqual(AuthorizationOutcome.Unknown())
      // A failed challenge: Adyen refuses with "3D Not Authenticated".
      const failing = yield* connector.authorize(stored("visa_3ds"))
      if (failing._tag !== "ActionRequired") return expect.fail(failing._tag)
      const failedBack = yield* Effect.promise(() => fetch(`${failing.redirectUrl}?result=fail`, { redirect: "manual" }))
      const failedResult = new URL(failedBack.headers.get("location")!).searchParams.get("redirectResult")!
      expect(yield* connector.completeAction!({ ...completion, pspPaymentId: failing.pspPaymentId, details: { redirectResult: failedResult } }))
        .toMatchObject({ _tag: "Refused", code: "authentication_failed" })
      expectContract(fake)
    }))

  it.scoped("captures, cancels and refunds are received, settled later by notification", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const authorized = yield* connector.authorize(authorizeWith("visa_ok", { capture: false, customer: { id: "cus_1", email: null, name: null } }))
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      const psp = authorized.pspPaymentId
      expect(yield* connector.capture({ reference: "att_1_capture", pspPaymentId: psp, amount: 600, currency: "EUR" as Currency }))
        .toEqual({ _tag: "Pending" })
      expect(lastBody(fake)).toEqual({ merchantAccount: fake.merchantAccount, amount: { value: 600, currency: "EUR" }, reference: "att_1_capture" })
      expect(yield* connector.refund({ reference: "ref_1", pspPaymentId: psp, amount: 200, currency: "EUR" as Currency, reason: "requested_by_customer" }))
        .toMatchObject({ _tag: "Pending", pspRefundId: expect.stringMatching(/^[A-Z0-9]{16}$/) })
      expect(lastBody(fake)).toMatchObject({ merchantRefundReason: "CUSTOMER REQUEST", reference: "ref_1" })
      expect(yield* connector.syncRefund({ reference: "ref_1" })).toEqual(RefundOutcome.Unknown())
      expect(yield* connector.cancel({ reference: "att_1_cancel", pspPaymentId: psp })).toEqual({ _tag: "Pending" })
      // Before Adyen gave its reference (a redirect), the cancel goes by ours.
      expect(yield* connector.cancel({ reference: "att_2_cancel", pspPaymentId: "att_2" })).toEqual({ _tag: "Pending" })
      expect(fake.exchanges.at(-1)!.url).toBe("/v71/cancels")
      expect(yield* connector.capture({ reference: "att_9_capture", pspPaymentId: "ZZZZZZZZZZZZZZZZ", amount: 1, currency: "EUR" as Currency }))
        .toMatchObject({ _tag: "Refused", code: "invalid_request" })
      expectContract(fake)
    }))

  it.scoped("amounts in Adyen's units: CLP and ISK in hundredths, CVE and IDR whole, four-decimal refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      for (
        const [amount, currency, value] of [[500, "JPY", 500], [1500, "CLP", 150000], [7, "ISK", 700], [1200, "CVE", 12], [150000, "IDR", 1500], [
          1230,
          "KWD",
          1230
        ]] as const
      ) {
        yield* connector.authorize({ ...stored("visa_ok"), amount, currency: currency as Currency })
        expect([currency, lastBody(fake).amount]).toEqual([currency, { value, currency }])
      }
      expect(yield* connector.authorize({ ...stored("visa_ok"), amount: 1250, currency: "CVE" as Currency })).toMatchObject({
        _tag: "Refused",
        code: "amount_not_representable"
      })
      expect(yield* connector.authorize({ ...stored("visa_ok"), amount: 1, currency: "CLF" as Currency })).toMatchObject({
        _tag: "Refused",
        code: "currency_not_supported"
      })
    }))

  it.scoped("no answer in time is an unknown outcome; the same request again is answered once; a live connection needs its own address", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const request = stored("visa_ok")
      fake.injectFault("hang")
      const pending = yield* Effect.fork(connector.authorize(request))
      yield* Effect.promise(async () => {
        while (fake.hungRequests() === 0) await new Promise((resolve) => setImmediate(resolve))
      })
      yield* TestClock.adjust("30 seconds")
      expect((yield* Effect.flip(Fiber.join(pending)))._tag).toBe("ConnectorOutcomeUnknown")
      expect(yield* connector.authorize(request)).toMatchObject({ _tag: "Authorized" })
      expect(fake.paymentsFor(request.reference)).toBe(1)

      const liveContext = pspContext({
        type: "adyen",
        baseUrl: fake.url,
        credentials: { api_key: API_KEY, merchant_account: "M" },
        webhookSecret: HMAC_KEY,
        livemode: true
      })
      const live = makeAdyenConnector(
        yield* fetchHttp,
        { ...liveContext, connection: testConnection({ ...liveContext.connection, base_url: null }) },
        Schema.decodeUnknownSync(AdyenSettings)({})
      )
      expect(yield* Effect.flip(live.authorize(stored("visa_ok")))).toMatchObject({ _tag: "ConnectorUnavailable", reason: expect.stringContaining("base_url") })
    }))
})

describe("Adyen notifications, verified per item as Adyen documents its HMAC", () => {
  /** The signature computed here from Adyen's documentation: key hex-decoded, the eight fields joined by ':'. */
  const expected = (item: Record<string, any>) =>
    createHmac("sha256", Buffer.from(HMAC_KEY, "hex"))
      .update(
        `${item.pspReference}:${
          item.originalReference ?? ""
        }:${item.merchantAccountCode}:${item.merchantReference}:${item.amount.value}:${item.amount.currency}:${item.eventCode}:${item.success}`
      )
      .digest("base64")

  it.scoped("AUTHORISATION, CAPTURE, CANCELLATION, REFUND and their failures in the port's terms; forged items refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const request = stored("visa_ok")
      const authorized = yield* connector.authorize({ ...request, capture: false })
      if (authorized._tag !== "Authorized") return expect.fail(authorized._tag)
      const psp = authorized.pspPaymentId
      yield* connector.capture({ reference: `${request.reference}_capture`, pspPaymentId: psp, amount: 700, currency: "EUR" as Currency })
      yield* connector.refund({ reference: "ref_9", pspPaymentId: psp, amount: 300, currency: "EUR" as Currency, reason: null })
      const [capture, refund] = fake.modifications
      const deliver = (body: string) => connector.verifyWebhook({ body: new TextEncoder().encode(body), headers: {} })

      const authorisation = fake.notification(HMAC_KEY, [fake.authorisation(psp, true)])
      expect(webhooks.checkWebhook("/AUTHORISATION", JSON.parse(authorisation))).toEqual([])
      const item = JSON.parse(authorisation).notificationItems[0].NotificationRequestItem
      expect(item.additionalData.hmacSignature).toBe(expected(item))
      expect(yield* deliver(authorisation)).toEqual([ProviderEvent.PaymentUpdated({
        eventId: `AUTHORISATION:${psp}:true`,
        reference: request.reference,
        pspPaymentId: psp,
        outcome: AuthorizationOutcome.Authorized({ pspPaymentId: psp, captured: false, amountCaptured: 0, card: { brand: null, last4: null, country: null } })
      })])
      const captured = fake.notification(HMAC_KEY, [fake.settlement(capture!, "CAPTURE", true)])
      expect(webhooks.checkWebhook("/CAPTURE", JSON.parse(captured))).toEqual([])
      expect(yield* deliver(captured)).toMatchObject([{
        _tag: "PaymentUpdated",
        reference: null,
        pspPaymentId: psp,
        outcome: { _tag: "Authorized", captured: true, amountCaptured: 700 }
      }])
      const refunded = fake.notification(HMAC_KEY, [fake.settlement(refund!, "REFUND", true)])
      expect(webhooks.checkWebhook("/REFUND", JSON.parse(refunded))).toEqual([])
      expect(yield* deliver(refunded)).toMatchObject([{
        _tag: "RefundUpdated",
        reference: "ref_9",
        pspRefundId: refund!.pspReference,
        outcome: { _tag: "Succeeded" }
      }])
      const refundFailed = fake.notification(HMAC_KEY, [{ ...fake.settlement(refund!, "REFUND_FAILED", true), reason: "Insufficient balance" }])
      expect(webhooks.checkWebhook("/REFUND_FAILED", JSON.parse(refundFailed))).toEqual([])
      expect(yield* deliver(refundFailed)).toMatchObject([{ _tag: "RefundUpdated", outcome: { _tag: "Failed", code: "refund_failed" } }])
      expect(yield* deliver(fake.notification(HMAC_KEY, [fake.settlement(capture!, "CAPTURE_FAILED", true)]))).toMatchObject([
        { _tag: "PaymentUpdated", outcome: { _tag: "Refused", code: "capture_failed" } }
      ])
      expect(yield* deliver(fake.notification(HMAC_KEY, [{ ...fake.settlement(capture!, "CANCELLATION", true) }]))).toMatchObject([
        { _tag: "PaymentUpdated", pspPaymentId: psp, outcome: { _tag: "Refused", code: "canceled" } }
      ])
      const refusedAuth = fake.notification(HMAC_KEY, [{ ...fake.authorisation(psp, false), reason: "Not enough balance" }])
      expect(yield* deliver(refusedAuth)).toMatchObject([{ outcome: { _tag: "Refused", code: "insufficient_funds" } }])
      expect(yield* deliver(fake.notification(HMAC_KEY, [{ ...fake.authorisation(psp, true), eventCode: "REPORT_AVAILABLE" }]))).toEqual([])

      // Forged: another key, a field changed after signing, no signature, a key that is not hex.
      const tampered = authorisation.replace("\"value\":1050", "\"value\":1")
      for (
        const [body, reason] of [
          [fake.notification("00".repeat(32), [fake.authorisation(psp, true)]), "signature mismatch"],
          [tampered, "signature mismatch"],
          [authorisation.replace(/"hmacSignature":"[^"]+"/, "\"hmacSignature\":\"\""), "signature missing"],
          ["{}", "the body is not an Adyen notification"],
          [JSON.stringify({ live: "false", notificationItems: [] }), "the notification has no items"]
        ] as const
      ) {
        expect(yield* Effect.flip(deliver(body))).toMatchObject({ _tag: "WebhookRejected", reason })
      }
      // Signed, but from Adyen's live platform to this test connection: verified, acknowledged, applied to nothing.
      expect(yield* deliver(authorisation.replace("\"live\":\"false\"", "\"live\":\"true\""))).toEqual([])
      // Two items, the second forged: the whole notification is refused.
      const two = JSON.parse(fake.notification(HMAC_KEY, [fake.authorisation(psp, true), fake.settlement(capture!, "CAPTURE", true)]))
      two.notificationItems[1].NotificationRequestItem.amount.value = 1
      expect((yield* Effect.flip(deliver(JSON.stringify(two)))).reason).toBe("signature mismatch")
      expect(connector.webhookAcknowledgement).toBe("[accepted]")
    }))
})

describe("the Adyen contract validator itself", () => {
  it("rejects requests the document does not allow", () => {
    const valid = {
      method: "POST",
      url: "/v71/payments",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        amount: { value: 1, currency: "EUR" },
        merchantAccount: "M",
        paymentMethod: { type: "scheme", storedPaymentMethodId: "x" },
        reference: "r",
        returnUrl: "https://x"
      })
    }
    expect(contract.checkRequest(valid)).toEqual([])
    const body = JSON.parse(valid.body)
    for (
      const wrong of [
        { ...body, reference: undefined },
        { ...body, amount: { value: "1", currency: "EUR" } },
        { ...body, shopperInteraction: "Phone" },
        { ...body, colour: "red" }
      ]
    ) {
      expect([wrong, contract.checkRequest({ ...valid, body: JSON.stringify(wrong) }).length > 0]).toEqual([wrong, true])
    }
    expect(contract.checkRequest({ ...valid, url: "/v70/payments" }).length).toBeGreaterThan(0)
    expect(contract.checkResponse({ method: "POST", url: "/v71/payments/ABC/captures", status: 201, responseBody: JSON.stringify({ status: "done" }) }).length)
      .toBeGreaterThan(0)
  })
})
