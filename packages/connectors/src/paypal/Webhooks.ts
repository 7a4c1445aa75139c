import { AuthorizationOutcome, failureMessage, type IncomingWebhook, isPspId, ProviderEvent, type WebhookClaim, WebhookRejected } from "@orchestrator/core"
import { Effect, Schema } from "effect"
import { fromPayPalMoney } from "./Amounts.js"
import type { PayPalCall } from "./Api.js"
import { disputeEventOf } from "./Disputes.js"
import { noCard } from "./Outcomes.js"
import { outcomeOfRefund } from "./Payments.js"
import { Authorization, Capture, Refund, VerificationAnswer, type WebhookEvent, WebhookEvent as WebhookEventSchema } from "./Wire.js"

/** The headers PayPal signs a webhook delivery with, as `verify-webhook-signature` takes them. */
const TRANSMISSION_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time"
} as const

const decodeEvent = Schema.decodeUnknown(Schema.parseJson(WebhookEventSchema))
const decodeCapture = Schema.decodeUnknownOption(Capture)
const decodeAuthorization = Schema.decodeUnknownOption(Authorization)
const decodeRefund = Schema.decodeUnknownOption(Refund)
const decodeVerification = Schema.decodeUnknown(VerificationAnswer)

/** The order a capture or authorization belongs to: the payment's PSP id. */
const orderIdOf = (resource: Readonly<Record<string, unknown>>): string | undefined => {
  const related = (resource.supplementary_data as { related_ids?: { order_id?: unknown } } | undefined)?.related_ids
  return typeof related?.order_id === "string" ? related.order_id : undefined
}

const refused = (orderId: string, code: string, providerMessage: string) =>
  AuthorizationOutcome.Refused({ pspPaymentId: orderId, code, message: failureMessage(code), retryable: false, card: noCard, providerMessage })

/**
 * What one event moves: captures and authorizations (their `custom_id` is our reference, their order
 * the payment's PSP id) and refunds (`custom_id` is the refund's reference). CHECKOUT.ORDER.APPROVED
 * moves nothing by itself: the payer's return, or the poll of payments waiting for their customer,
 * completes the approved order, and never for a payment canceled meanwhile. CUSTOMER.DISPUTE.*
 * carry the dispute as it is now.
 */
export const eventsOf = (event: WebhookEvent): ReadonlyArray<ProviderEvent> => {
  const resource = event.resource
  const payment = (outcome: (orderId: string) => AuthorizationOutcome, reference: string | undefined) => {
    const orderId = orderIdOf(resource)
    return orderId === undefined
      ? []
      : [ProviderEvent.PaymentUpdated({ eventId: event.id, reference: reference ?? null, pspPaymentId: orderId, outcome: outcome(orderId) })]
  }
  switch (event.event_type) {
    case "PAYMENT.CAPTURE.COMPLETED":
    case "PAYMENT.CAPTURE.PENDING":
    case "PAYMENT.CAPTURE.DENIED":
    case "PAYMENT.CAPTURE.DECLINED": {
      const capture = decodeCapture(resource)
      if (capture._tag === "None") return []
      const amount = capture.value.amount === undefined ? undefined : fromPayPalMoney(capture.value.amount)
      return payment((orderId) =>
        event.event_type === "PAYMENT.CAPTURE.COMPLETED" && amount !== undefined
          ? AuthorizationOutcome.Authorized({ pspPaymentId: orderId, captured: true, amountCaptured: amount, card: noCard })
          : event.event_type === "PAYMENT.CAPTURE.PENDING"
          ? AuthorizationOutcome.Pending({ pspPaymentId: orderId, card: noCard })
          : refused(orderId, "payment_method_declined", `${event.event_type}`), capture.value.custom_id)
    }
    case "PAYMENT.AUTHORIZATION.CREATED":
    case "PAYMENT.AUTHORIZATION.VOIDED": {
      const authorization = decodeAuthorization(resource)
      if (authorization._tag === "None") return []
      return payment((orderId) =>
        event.event_type === "PAYMENT.AUTHORIZATION.CREATED"
          ? AuthorizationOutcome.Authorized({ pspPaymentId: orderId, captured: false, amountCaptured: 0, card: noCard })
          : refused(orderId, "canceled", "the authorization was voided"), authorization.value.custom_id)
    }
    case "PAYMENT.CAPTURE.REFUNDED":
    case "PAYMENT.REFUND.PENDING":
    case "PAYMENT.REFUND.FAILED": {
      const refund = decodeRefund(resource)
      if (refund._tag === "None") return []
      return [ProviderEvent.RefundUpdated({
        eventId: event.id,
        reference: refund.value.custom_id ?? null,
        pspRefundId: refund.value.id,
        outcome: outcomeOfRefund(refund.value)
      })]
    }
    case "CUSTOMER.DISPUTE.CREATED":
    case "CUSTOMER.DISPUTE.UPDATED":
    case "CUSTOMER.DISPUTE.RESOLVED":
      return disputeEventOf(event.id, resource)
    default:
      return []
  }
}

/**
 * What a delivery claims before PayPal is asked to verify it: the id of the event it carries. Only a
 * repeat of an event already verified and stored is spared the call; nothing else in it is believed.
 */
export const paypalWebhookClaim = (webhook: IncomingWebhook): WebhookClaim => {
  let id: unknown = undefined
  try {
    id = (JSON.parse(new TextDecoder().decode(webhook.body)) as { id?: unknown } | null)?.id
  } catch {
    return {}
  }
  return typeof id === "string" && isPspId(id) ? { eventId: id } : {}
}

/**
 * Verifies a webhook as PayPal documents it: its transmission headers, the connection's `webhook_id`
 * and the event, exactly as received, posted to `/v1/notifications/verify-webhook-signature`, which
 * must answer `SUCCESS`. Anything else (a forged or replayed delivery, PayPal out of reach) is
 * refused: PayPal delivers again later.
 */
export const readPayPalWebhook = (call: PayPalCall, webhookId: string | undefined) => (webhook: IncomingWebhook) =>
  Effect.gen(function*() {
    if (webhookId === undefined) {
      return yield* new WebhookRejected({ reason: "the connection has no settings.webhook_id to verify PayPal's webhooks with" })
    }
    const transmission: Record<string, string> = {}
    for (const [field, header] of Object.entries(TRANSMISSION_HEADERS)) {
      const value = webhook.headers[header]
      if (value === undefined || value === "") return yield* new WebhookRejected({ reason: `the ${header} header is missing` })
      transmission[field] = value
    }
    const raw = new TextDecoder().decode(webhook.body)
    const event = yield* Effect.mapError(decodeEvent(raw), () => new WebhookRejected({ reason: "the body is not a PayPal webhook event" }))
    // The event goes back byte for byte as it came: re-encoding it could change what was signed.
    const body = `{${
      Object.entries({ ...transmission, webhook_id: webhookId }).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")
    },"webhook_event":${raw}}`
    const answer = yield* call("verify webhook signature", {
      method: "POST",
      path: "/v1/notifications/verify-webhook-signature",
      rawBody: body
    }).pipe(Effect.mapError((error) => new WebhookRejected({ reason: `the signature could not be verified: ${error.reason}` })))
    if (answer._tag === "Failed") return yield* new WebhookRejected({ reason: `PayPal refused to verify the signature (HTTP ${answer.status})` })
    const verdict = yield* Effect.mapError(decodeVerification(answer.json), () => new WebhookRejected({ reason: "unreadable verification answer" }))
    if (verdict.verification_status !== "SUCCESS") return yield* new WebhookRejected({ reason: "signature mismatch" })
    return eventsOf(event)
  })
