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
import { fromCheckoutComAmount } from "./Amounts.js"
import { disputeEventsOf, isDisputeWebhook } from "./Disputes.js"
import { canceled, capturesAutomatically, cardOf, declined } from "./Outcomes.js"
import { WebhookEvent } from "./Wire.js"

export const CHECKOUT_COM_SIGNATURE_HEADER = "cko-signature"

const decodeEvent = Schema.decodeUnknownEither(Schema.parseJson(WebhookEvent))

/** Hex HMAC-SHA256 of the raw body under the webhook's signature key. */
export const signatureOf = (key: string, body: Uint8Array) =>
  Effect.promise(async () => {
    const imported = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    const signed = new Uint8Array(await crypto.subtle.sign("HMAC", imported, new Uint8Array(body)))
    return Array.from(signed, (byte) => byte.toString(16).padStart(2, "0")).join("")
  })

/** One event in the port's terms; event types that move nothing here give none. */
const eventsOf = (event: WebhookEvent): ReadonlyArray<ProviderEvent> => {
  const { data } = event
  const card = cardOf(data.source)
  const amount = data.amount === undefined || data.currency === undefined ? 0 : fromCheckoutComAmount(data.amount, data.currency)
  const responseCode = data.response_code === undefined ? undefined : String(data.response_code)
  const payment = (
    reference: string | null,
    outcome: AuthorizationOutcome
  ) => [ProviderEvent.PaymentUpdated({ eventId: event.id, reference, pspPaymentId: data.id, outcome })]
  const refund = (outcome: RefundOutcome) => // The action id is what our refund recorded (the 202's `action_id`).
  [ProviderEvent.RefundUpdated({ eventId: event.id, reference: null, pspRefundId: data.action_id ?? null, outcome })]
  switch (event.type) {
    case "payment_approved": {
      const captured = capturesAutomatically(data.metadata)
      return payment(
        data.reference ?? null,
        AuthorizationOutcome.Authorized({ pspPaymentId: data.id, captured, amountCaptured: captured ? amount : 0, card })
      )
    }
    case "payment_captured":
      return payment(null, AuthorizationOutcome.Authorized({ pspPaymentId: data.id, captured: true, amountCaptured: amount, card }))
    case "payment_declined":
      return payment(data.reference ?? null, declined(data.id, responseCode, data.response_summary, card))
    case "payment_capture_declined":
      return payment(
        null,
        AuthorizationOutcome.Refused({
          pspPaymentId: data.id,
          code: "capture_failed",
          message: failureMessage("capture_failed"),
          retryable: false,
          card,
          providerMessage: `${responseCode ?? ""} ${data.response_summary ?? ""}`.trim() || undefined
        })
      )
    case "payment_voided":
    case "payment_canceled":
    case "payment_cancelled":
    case "payment_expired":
      return payment(data.reference ?? null, canceled(data.id, card, event.type))
    case "payment_refunded":
      return data.action_id === undefined ? [] : refund(RefundOutcome.Succeeded({ pspRefundId: data.action_id }))
    case "payment_refund_declined":
      return data.action_id === undefined ? [] : refund(RefundOutcome.Failed({
        pspRefundId: data.action_id,
        code: "refund_failed",
        message: failureMessage("refund_failed"),
        providerMessage: `${responseCode ?? ""} ${data.response_summary ?? ""}`.trim() || undefined
      }))
    default:
      // payment_pending, *_pending, payment_void_declined, disputes…: nothing to move here.
      return []
  }
}

/**
 * Verifies a Checkout.com webhook as Checkout.com documents it: `Cko-Signature` is the hex
 * HMAC-SHA256 of the raw body, keyed with the signature key of the workflow's webhook action (the
 * connection's webhook secret), compared in constant time before anything is read.
 */
export const readCheckoutComWebhook = (
  webhook: IncomingWebhook,
  webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>
) =>
  Effect.gen(function*() {
    const secret = yield* Effect.mapError(webhookSecret, () => new WebhookRejected({ reason: "the connection has no webhook secret" }))
    const given = webhook.headers[CHECKOUT_COM_SIGNATURE_HEADER]?.trim().toLowerCase()
    if (given === undefined || given === "") return yield* new WebhookRejected({ reason: "signature missing" })
    if (!constantTimeEqual(given, yield* signatureOf(Redacted.value(secret), webhook.body))) {
      return yield* new WebhookRejected({ reason: "signature mismatch" })
    }
    const text = new TextDecoder().decode(webhook.body)
    const event = decodeEvent(text)
    if (event._tag === "Left") return yield* new WebhookRejected({ reason: "the body is not a Checkout.com event" })
    if (isDisputeWebhook(event.right.type)) return disputeEventsOf(text, yield* Clock.currentTimeMillis)
    return eventsOf(event.right)
  })
