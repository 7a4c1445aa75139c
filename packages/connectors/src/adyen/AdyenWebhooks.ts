import {
  AuthorizationOutcome,
  constantTimeEqual,
  failureMessage,
  type IncomingWebhook,
  type MissingSecret,
  ProviderEvent,
  RefundOutcome,
  WebhookRejected
} from "@orchestrator/core"
import { Clock, Effect, Redacted, Schema } from "effect"
import { fromAdyenValue } from "./AdyenAmounts.js"
import { disputeEventsOf } from "./AdyenDisputes.js"
import { cardOfAdditionalData, failureOfRefusal } from "./AdyenResults.js"

/** The answer Adyen's standard notifications expect from us. */
export const ADYEN_ACKNOWLEDGEMENT = "[accepted]"

/** The metadata key telling a webhook which capture the payment asked for (Adyen echoes metadata in AUTHORISATION). */
export const CAPTURE_METADATA_KEY = "capture"

export const NotificationItem = Schema.Struct({
  pspReference: Schema.String,
  originalReference: Schema.optional(Schema.String),
  merchantAccountCode: Schema.String,
  merchantReference: Schema.String,
  amount: Schema.Struct({ value: Schema.Number, currency: Schema.String }),
  eventCode: Schema.String,
  success: Schema.String,
  reason: Schema.optional(Schema.String),
  paymentMethod: Schema.optional(Schema.String),
  eventDate: Schema.optional(Schema.String),
  additionalData: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type NotificationItem = typeof NotificationItem.Type

const NotificationRequest = Schema.Struct({
  live: Schema.String,
  notificationItems: Schema.Array(Schema.Struct({ NotificationRequestItem: NotificationItem }))
})

const decodeNotification = Schema.decodeUnknown(Schema.parseJson(NotificationRequest))

/**
 * The string Adyen signs for a notification item, as Adyen documents it (and its libraries build
 * it): `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`,
 * a missing field as an empty string. The signature covers these parsed fields, not the raw body.
 */
export const signingStringOf = (item: NotificationItem) =>
  [
    item.pspReference,
    item.originalReference ?? "",
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success
  ].join(":")

/** The HMAC key as Adyen shows it in its Customer Area: hex, to be decoded to bytes. */
const hexKey = (hex: string): Uint8Array<ArrayBuffer> | undefined => {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)))

/** Base64 HMAC-SHA256 of the item's signing string under the hex-decoded key. */
export const signatureOf = (key: Uint8Array<ArrayBuffer>, item: NotificationItem) =>
  Effect.promise(async () => {
    const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    return base64(await crypto.subtle.sign("HMAC", imported, new TextEncoder().encode(signingStringOf(item))))
  })

/** One notification item in the port's terms; items that move nothing here give no event. */
const eventOf = (item: NotificationItem, receivedAtMillis: number): ReadonlyArray<ProviderEvent> => {
  const success = item.success === "true"
  // Adyen's advice: the same pspReference and eventCode is the same news (retries resend it).
  const eventId = `${item.eventCode}:${item.pspReference}:${item.success}`
  const amount = fromAdyenValue(item.amount.value, item.amount.currency)
  const data = item.additionalData
  const card = cardOfAdditionalData(data, item.paymentMethod)
  const paymentUpdated = (
    reference: string | null,
    pspPaymentId: string,
    outcome: AuthorizationOutcome
  ) => [ProviderEvent.PaymentUpdated({ eventId, reference, pspPaymentId, outcome })]
  switch (item.eventCode) {
    case "AUTHORISATION": {
      if (!success) {
        const failure = failureOfRefusal(undefined, item.reason)
        return paymentUpdated(
          item.merchantReference,
          item.pspReference,
          AuthorizationOutcome.Refused({ pspPaymentId: item.pspReference, ...failure, card })
        )
      }
      // Which capture the payment asked for comes back in its metadata (an object in Adyen's webhook
      // document, flattened `metadata.key` in Adyen's prose); Adyen's default is automatic.
      const metadata = data?.metadata
      const mode = data?.[`metadata.${CAPTURE_METADATA_KEY}`] ??
        (typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>)[CAPTURE_METADATA_KEY] : undefined)
      const captured = mode !== "manual"
      return paymentUpdated(
        item.merchantReference,
        item.pspReference,
        AuthorizationOutcome.Authorized({ pspPaymentId: item.pspReference, captured, amountCaptured: captured ? amount : 0, card })
      )
    }
    case "CAPTURE":
      // A failed capture request leaves the authorization as it was: nothing to move.
      return success && item.originalReference !== undefined
        ? paymentUpdated(
          null,
          item.originalReference,
          AuthorizationOutcome.Authorized({ pspPaymentId: item.originalReference, captured: true, amountCaptured: amount, card })
        )
        : []
    case "CAPTURE_FAILED":
      return item.originalReference === undefined ? [] : paymentUpdated(
        null,
        item.originalReference,
        AuthorizationOutcome.Refused({
          pspPaymentId: item.originalReference,
          code: "capture_failed",
          message: failureMessage("capture_failed"),
          providerMessage: item.reason,
          retryable: false,
          card
        })
      )
    case "CANCELLATION":
      return success
        ? paymentUpdated(
          null,
          item.originalReference ?? item.pspReference,
          AuthorizationOutcome.Refused({
            pspPaymentId: item.originalReference ?? item.pspReference,
            code: "canceled",
            message: "The payment was canceled.",
            retryable: false,
            card
          })
        )
        : []
    case "REFUND":
    case "REFUND_FAILED": {
      const outcome = item.eventCode === "REFUND" && success
        ? RefundOutcome.Succeeded({ pspRefundId: item.pspReference })
        : RefundOutcome.Failed({
          pspRefundId: item.pspReference,
          code: "refund_failed",
          message: failureMessage("refund_failed"),
          providerMessage: item.reason
        })
      return [ProviderEvent.RefundUpdated({ eventId, reference: item.merchantReference, pspRefundId: item.pspReference, outcome })]
    }
    default:
      return disputeEventsOf(item, eventId, receivedAtMillis)
  }
}

/**
 * Verifies Adyen's standard notifications exactly as Adyen documents it: each item's
 * `additionalData.hmacSignature` must be the base64 HMAC-SHA256, under the hex-decoded key of the
 * connection's webhook secret, of that item's signing string, compared in constant time. One item
 * that fails rejects the whole notification (Adyen sends it again). Items of another merchant
 * account (a company-level webhook), or of the other environment (`live` is Adyen's flag: a test
 * notification never moves a live payment, nor the reverse), are verified and ignored.
 */
export const readAdyenWebhook = (
  webhook: IncomingWebhook,
  webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>,
  merchantAccount: Effect.Effect<string | undefined>,
  livemode: boolean
) =>
  Effect.gen(function*() {
    const secret = yield* Effect.mapError(webhookSecret, () => new WebhookRejected({ reason: "the connection has no webhook secret" }))
    const key = hexKey(Redacted.value(secret))
    if (key === undefined) return yield* new WebhookRejected({ reason: "the webhook secret is not Adyen's hex HMAC key" })
    const notification = yield* decodeNotification(new TextDecoder().decode(webhook.body)).pipe(
      Effect.mapError(() => new WebhookRejected({ reason: "the body is not an Adyen notification" }))
    )
    const items = notification.notificationItems.map((each) => each.NotificationRequestItem)
    if (items.length === 0) return yield* new WebhookRejected({ reason: "the notification has no items" })
    for (const item of items) {
      const given = item.additionalData?.hmacSignature
      if (typeof given !== "string" || given === "") return yield* new WebhookRejected({ reason: "signature missing" })
      if (!constantTimeEqual(given, yield* signatureOf(key, item))) {
        return yield* new WebhookRejected({ reason: "signature mismatch" })
      }
    }
    if (notification.live !== String(livemode)) return []
    const ours = yield* merchantAccount
    const receivedAt = yield* Clock.currentTimeMillis
    return items.filter((item) => ours === undefined || item.merchantAccountCode === ours).flatMap((item) => eventOf(item, receivedAt))
  })
