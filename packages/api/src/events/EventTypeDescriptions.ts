import type { EventType } from "@orchestrator/core"

/**
 * When each event type is sent, as the event catalogue (`webhooks` in the OpenAPI document) says it.
 * Typed by the core's own list of event types, so a new type does not compile until it is described.
 */
export const EVENT_TYPE_DESCRIPTIONS: { readonly [Type in EventType]: string } = {
  "payment.created": "A payment was recorded, before any call to a provider. `data.object` is the payment in status `created`.",
  "payment.processing": "The payment was handed to a provider (an attempt was sent). A payment whose provider has not " +
    "answered yet stays here until the worker settles it with the provider.",
  "payment.requires_action": "The provider asks for customer authentication (3D Secure). `data.object.next_action.url` " +
    "is the page to send the customer to; the payment settles when they come back.",
  "payment.requires_capture": "The payment was authorized with `capture: false`: capture it (`POST /v1/payments/{id}/capture`) " +
    "or cancel it within 7 days, after which the authorization is released.",
  "payment.succeeded": "The money was captured: fulfil the order. `amount_captured` says how much.",
  "payment.failed": "The provider declined the payment or it failed for good; `data.object.failure.code` says why. " +
    "A payment never leaves `failed`.",
  "payment.canceled": "The payment was canceled: by `POST /v1/payments/{id}/cancel`, an authorization released after " +
    "7 days, a 3D Secure step that expired, or a 3D Secure payment made without `return_url`.",
  "refund.pending": "A refund was recorded and sent to the provider; it counts in the payment's `amount_refunded` already.",
  "refund.succeeded": "The provider confirmed the refund: the money is on its way back to the customer.",
  "refund.failed": "The provider refused the refund; its amount is refundable again. `data.object.failure` says why.",
  "dispute.created": "A customer disputes a payment (an inquiry or a chargeback), as its provider told. " +
    "`data.object.evidence_due_by` is the deadline to answer (`POST /v1/disputes/{id}/evidence`, then `/submit`).",
  "dispute.updated": "A dispute changed without closing: a later stage, a new deadline or amount, a reopened outcome, " +
    "or a deadline warning (`evidence_due_soon` is `72h`, then `24h`, before `evidence_due_by`).",
  "dispute.evidence_submitted": "The evidence reached the provider (from the API or the provider's dashboard); the dispute is `under_review`.",
  "dispute.closed": "The dispute ended: `data.object.status` is the outcome (`won`, `lost`, `accepted`, `expired`, `warning_closed`).",
  "dispute.funds_withdrawn": "The provider took the disputed amount from you; it counts in the payment's `amount_disputed` and cannot be refunded.",
  "dispute.funds_reinstated": "The provider gave the disputed amount back (the dispute was won).",
  "provider_connection.error": "Calls to a provider connection keep failing (connection errors, 5xx, refused " +
    "credentials): its circuit opened and routing skips it until a trial call succeeds. `data.object.last_error` says why.",
  "subscription.created": "A subscription was created, `incomplete` until its first charge succeeds, or `trialing`.",
  "subscription.updated": "A subscription changed without a status of its own: a new period started, its first charge " +
    "completed (`incomplete` to `active`), a trial ended, a plan change was scheduled or applied, " +
    "`cancel_at_period_end` or `metadata` changed, or it came back to `active` after a late payment.",
  "subscription.canceled": "A subscription was canceled: at once, at the end of its period as scheduled, or its first " +
    "charge never completed. It is final.",
  "subscription.past_due": "The charge of a period failed; the invoice stays open and is retried on the dunning schedule.",
  "subscription.unpaid": "Every retry of a period's charge failed: the subscription is `unpaid` and its invoice `uncollectible`.",
  "invoice.created": "An invoice was generated for a subscription period (or the first one), before its charge.",
  "invoice.paid": "An invoice was charged successfully (a late payment of an `uncollectible` invoice also sends it).",
  "invoice.payment_failed": "A charge of an invoice failed; `attempt_count` and `next_payment_attempt` say what comes next.",
  "invoice.voided": "A first invoice whose charge never completed (the subscription expired `incomplete`) was voided.",
  "invoice.marked_uncollectible": "Every retry of an invoice's charge failed; a later successful payment still pays it.",
  "checkout.session.created": "A checkout session was created and is `open`, waiting for the customer.",
  "checkout.session.processing": "The customer submitted a payment method; the session's payment is being processed.",
  "checkout.session.completed": "The session's payment succeeded: the session is `complete`. Fulfil the order here.",
  "checkout.session.payment_failed": "The session's payment was declined; the customer may try another provider (reroute), " +
    "cancel, or let the session expire.",
  "checkout.session.rerouted": "After a decline, the session was reopened (`open`) on another provider, excluding the one that failed.",
  "checkout.session.cancelled": "The session was cancelled (by the merchant or the customer) before it was paid.",
  "checkout.session.expired": "The session reached `expires_at` without being paid.",
  "webhook_endpoint.disabled": "Every delivery attempt to one of your webhook endpoints failed for 3 days (since " +
    "`data.object.failing_since`): the service disabled it (`status: disabled`). Its deliveries are exhausted; fix the " +
    "receiver, enable it again (`PATCH /v1/webhooks/endpoints/{id}` with `status: active`) and resend the dead-letter set. " +
    "Sent to your other endpoints subscribed to it, never to the disabled one."
}
