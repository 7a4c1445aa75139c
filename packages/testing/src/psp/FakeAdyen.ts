import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { type AdyenCheckoutState, completeChallenge, handleCheckout, serviceError } from "./FakeAdyenCheckout.js"
import { ADYEN_DISPUTES_PATH, DEFAULT_DEFENSE_REASONS, type FakeAdyenDispute, type FakeDefenseReason, handleAdyenDisputes } from "./FakeAdyenDisputes.js"
import type { AdyenModification, AdyenPayment } from "./FakeAdyenRecords.js"
import { fakeControls, type PspFault, startFakePspServer } from "./FakePspServer.js"
import type { RecordedExchange } from "./OpenApiContract.js"

/**
 * A local Adyen Checkout API v71, written from Adyen's API explorer and its testing guides:
 * `/payments` (the stored card id decides the outcome), 3DS2 in its redirect flow with the shopper
 * sent back to `returnUrl?redirectResult=…`, `/payments/details`, and modifications answered
 * `received`; their outcome comes only by the notifications the tests build with `notification`,
 * signed as Adyen signs them (HMAC-SHA256 under the hex-decoded key, base64). `Idempotency-Key`
 * replays the first answer, and payments are counted per key.
 */

/** The error answer a test can inject, in Adyen's shape. */
type AdyenFault = { readonly status: number; readonly errorCode: string; readonly message?: string }

export type { AdyenModification, AdyenPayment, FakeAdyenDispute, FakeDefenseReason }

/** One notification item, before it is signed. */
export interface NotificationFields {
  readonly pspReference: string
  readonly originalReference?: string
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly eventCode: string
  readonly success: boolean
  readonly reason?: string
  /** When Adyen generated it (ISO 8601); a fixed time by default. */
  readonly eventDate?: string
  readonly additionalData?: Record<string, unknown>
}

export interface FakeAdyen {
  readonly url: string
  readonly merchantAccount: string
  readonly exchanges: Array<RecordedExchange>
  readonly payments: Map<string, AdyenPayment>
  readonly modifications: Array<AdyenModification>
  readonly paymentsFor: (idempotencyKey: string) => number
  injectFault: (fault: PspFault<AdyenFault>) => void
  readonly hungRequests: () => number
  /** The next POST is processed but never answered (the `hang` fault): the connector must time out. */
  readonly dropNextAnswer: () => void
  /** A notification (standard webhook) body with each item signed under `hexKey`. */
  readonly notification: (hexKey: string, items: ReadonlyArray<NotificationFields>) => string
  /** The Disputes API's base URL on this fake (a connection's `settings.disputes_base_url`). */
  readonly disputesUrl: string
  readonly disputes: Map<string, FakeAdyenDispute>
  /** A dispute open to a defense at the Disputes API, under these defense reasons (Adyen's usual ones unless given). */
  readonly openDispute: (pspReference: string, reasons?: ReadonlyArray<FakeDefenseReason>) => FakeAdyenDispute
  /** The AUTHORISATION notification Adyen sends for a payment, with its metadata echoed. */
  readonly authorisation: (pspReference: string, success: boolean) => NotificationFields
  /** The notification settling a modification (CAPTURE, CANCELLATION, REFUND…). */
  readonly settlement: (modification: AdyenModification, eventCode: string, success: boolean) => NotificationFields
}

/** The signing string and signature, computed here from Adyen's documentation, not from the connector. */
export const adyenSignature = (hexKey: string, item: NotificationFields & { merchantAccountCode: string }) => {
  const signed = [
    item.pspReference,
    item.originalReference ?? "",
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success ? "true" : "false"
  ].join(":")
  return createHmac("sha256", Buffer.from(hexKey, "hex")).update(signed, "utf8").digest("base64")
}

export const fakeAdyen = Effect.acquireRelease(
  Effect.promise(() => startFakeAdyen()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeAdyen = async (merchantAccount = "FakeMerchantECOM"): Promise<FakeAdyen & { close: () => Promise<void> }> => {
  let baseUrl = ""

  const state: AdyenCheckoutState = {
    merchantAccount,
    payments: new Map(),
    modifications: [],
    redirects: new Map(),
    counts: new Map(),
    baseUrl: () => baseUrl
  }
  const { payments, modifications, counts } = state
  const disputes = new Map<string, FakeAdyenDispute>()

  const server = await startFakePspServer<AdyenFault>({
    origin: "http://fake.adyen",
    challenge: (url, response) => completeChallenge(state, url, response),
    refuse: (request, key) => {
      if (!request.headers["x-api-key"]) return serviceError(401, "000", "HTTP Status Response - Unauthorized")
      // Adyen's documented limit for idempotency keys.
      if (key !== undefined && key.length > 64) return serviceError(422, "000", "Idempotency-Key longer than 64 characters")
      return undefined
    },
    keyedMethod: () => true,
    faultAnswer: (fault) => serviceError(fault.status, fault.errorCode, fault.message ?? "Injected failure"),
    keyReused: serviceError(422, "702", "Idempotency key reused with another request"),
    matchesPath: false,
    responseHeaders: () => ({}),
    replayHeaders: {},
    handle: (_method, url, body, key) =>
      url.pathname.startsWith(ADYEN_DISPUTES_PATH)
        ? handleAdyenDisputes(disputes, merchantAccount, url.pathname, JSON.parse(body))
        : handleCheckout(state, url.pathname, JSON.parse(body), key)
  })
  baseUrl = server.url

  return {
    url: baseUrl,
    ...fakeControls(server),
    merchantAccount,
    payments,
    modifications,
    paymentsFor: (key) => counts.get(key) ?? 0,
    notification: (hexKey, items) =>
      JSON.stringify({
        live: "false",
        notificationItems: items.map((item) => {
          const full = { ...item, merchantAccountCode: merchantAccount }
          return {
            NotificationRequestItem: {
              ...full,
              success: item.success ? "true" : "false",
              eventDate: item.eventDate ?? "2026-11-22T08:54:45+01:00",
              additionalData: { ...item.additionalData, hmacSignature: adyenSignature(hexKey, full) }
            }
          }
        })
      }),
    authorisation: (psp, success) => {
      const payment = payments.get(psp)!
      return {
        pspReference: psp,
        merchantReference: payment.reference,
        amount: payment.amount,
        eventCode: "AUTHORISATION",
        success,
        ...(success ? {} : { reason: "Refused" }),
        // Adyen echoes the request's metadata, as its webhook document describes it.
        additionalData: { metadata: payment.metadata }
      }
    },
    settlement: (modification, eventCode, success) => {
      const payment = payments.get(modification.paymentPspReference)
      return {
        pspReference: modification.pspReference,
        originalReference: modification.paymentPspReference,
        merchantReference: modification.reference,
        amount: modification.amount ?? payment?.amount ?? { value: 0, currency: "EUR" },
        eventCode,
        success
      }
    },
    disputesUrl: `${baseUrl}${ADYEN_DISPUTES_PATH}`,
    disputes,
    openDispute: (pspReference, reasons = DEFAULT_DEFENSE_REASONS) => {
      const dispute: FakeAdyenDispute = { pspReference, status: "Unresponded", reasons, documents: [], defendedWith: undefined }
      disputes.set(pspReference, dispute)
      return dispute
    },
    close: server.close
  }
}
