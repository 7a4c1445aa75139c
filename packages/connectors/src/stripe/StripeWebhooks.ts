import { type IncomingWebhook, type MissingSecret, ProviderEvent, verifySignature, WebhookRejected } from "@orchestrator/core"
import { Clock, Effect, Redacted, Schema } from "effect"
import { reportOfInvoice, reportOfSubscription, StripeInvoice, StripeSubscription } from "./StripeBillingObjects.js"
import { disputeEventOf, StripeDispute } from "./StripeDisputes.js"
import { outcomeOfIntent, outcomeOfRefund, PaymentIntent, REFERENCE_KEY, Refund, StripeEvent } from "./StripeObjects.js"

export const STRIPE_SIGNATURE_HEADER = "stripe-signature"

/** The events that move a payment: each carries the PaymentIntent as it is now. */
const PAYMENT_EVENTS = new Set([
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.requires_action",
  "payment_intent.amount_capturable_updated",
  "payment_intent.canceled",
  "payment_intent.processing"
])

/** The events that move a refund: `charge.refund.updated` before 2024-10-28, `refund.*` since, for all refunds. */
const REFUND_EVENTS = new Set(["charge.refund.updated", "refund.created", "refund.updated", "refund.failed"])

/** Stripe Billing's news of a native subscription: a period's charge, or the subscription's end. */
const INVOICE_EVENTS: ReadonlyMap<string, boolean> = new Map([["invoice.paid", true], ["invoice.payment_failed", false]])
const SUBSCRIPTION_EVENTS = new Set(["customer.subscription.updated", "customer.subscription.deleted"])

const decodeEvent = Schema.decodeUnknown(Schema.parseJson(StripeEvent))
const decodeInvoice = Schema.decodeUnknown(StripeInvoice)
const decodeSubscription = Schema.decodeUnknown(StripeSubscription)
const decodeIntent = Schema.decodeUnknown(PaymentIntent)
const decodeRefund = Schema.decodeUnknown(Refund)
const decodeDispute = Schema.decodeUnknown(StripeDispute)

/** Stripe's news of a dispute: each carries the Dispute as it is now. */
const DISPUTE_EVENTS = new Set([
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated"
])

/**
 * Verifies a Stripe webhook as Stripe documents it — `Stripe-Signature: t=…,v1=…` (several `v1`
 * during a secret roll), HMAC-SHA256 of `{t}.{raw body}` keyed by the endpoint's `whsec_…` secret,
 * 300 s tolerance, compared in constant time — and reads it in the port's terms. Event types that
 * move nothing here are accepted and ignored.
 */
export const readStripeWebhook = (
  webhook: IncomingWebhook,
  webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>
) =>
  Effect.gen(function*() {
    const secret = yield* Effect.mapError(webhookSecret, () => new WebhookRejected({ reason: "the connection has no webhook secret" }))
    yield* verifySignature({
      header: webhook.headers[STRIPE_SIGNATURE_HEADER],
      body: webhook.body,
      secrets: [Redacted.value(secret)],
      nowSeconds: Math.floor((yield* Clock.currentTimeMillis) / 1000)
    }).pipe(Effect.mapError((error) => new WebhookRejected({ reason: `signature ${error.reason}` })))
    const event = yield* decodeEvent(new TextDecoder().decode(webhook.body)).pipe(
      Effect.mapError(() => new WebhookRejected({ reason: "the body is not a Stripe event" }))
    )
    const unreadable = () => new WebhookRejected({ reason: `the object of ${event.type} is not what Stripe sends` })
    if (PAYMENT_EVENTS.has(event.type)) {
      const intent = yield* Effect.mapError(decodeIntent(event.data.object), unreadable)
      return [ProviderEvent.PaymentUpdated({
        eventId: event.id,
        reference: intent.metadata?.[REFERENCE_KEY] ?? null,
        pspPaymentId: intent.id,
        outcome: outcomeOfIntent(intent)
      })]
    }
    if (REFUND_EVENTS.has(event.type)) {
      const refund = yield* Effect.mapError(decodeRefund(event.data.object), unreadable)
      return [ProviderEvent.RefundUpdated({
        eventId: event.id,
        reference: refund.metadata?.[REFERENCE_KEY] ?? null,
        pspRefundId: refund.id,
        outcome: outcomeOfRefund(refund)
      })]
    }
    if (DISPUTE_EVENTS.has(event.type)) {
      const dispute = yield* Effect.mapError(decodeDispute(event.data.object), unreadable)
      return disputeEventOf(event.id, dispute, event.created === undefined ? yield* Clock.currentTimeMillis : event.created * 1000)
    }
    const paid = INVOICE_EVENTS.get(event.type)
    if (paid !== undefined) {
      const report = reportOfInvoice(event.id, yield* Effect.mapError(decodeInvoice(event.data.object), unreadable), paid)
      return report === null ? [] : [report]
    }
    if (SUBSCRIPTION_EVENTS.has(event.type)) {
      const report = reportOfSubscription(event.id, yield* Effect.mapError(decodeSubscription(event.data.object), unreadable))
      return report === null ? [] : [report]
    }
    return []
  })
