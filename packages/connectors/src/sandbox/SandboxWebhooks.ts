import {
  type IncomingWebhook,
  type MissingSecret,
  ProviderEvent,
  SIGNATURE_HEADER,
  signatureHeader,
  verifySignature,
  WebhookRejected
} from "@orchestrator/core"
import { Clock, Effect, Redacted, Schema } from "effect"
import { disputeEventOf } from "./SandboxDisputeFacts.js"
import type { SandboxCharge, SandboxRefund } from "./SandboxLedger.js"
import { outcomeOfCharge, refundOutcome } from "./SandboxOutcomes.js"

/** A charge as the sandbox's webhooks show it. */
const ChargeObject = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  merchant_reference: Schema.String,
  amount: Schema.Int,
  currency: Schema.String,
  token: Schema.String,
  capture: Schema.Boolean,
  status: Schema.Literal("requires_action", "authorized", "succeeded", "failed", "canceled"),
  amount_captured: Schema.Int,
  failure_code: Schema.NullOr(Schema.String),
  failure_message: Schema.NullOr(Schema.String)
})

/** A refund as the sandbox's webhooks show it. */
const RefundObject = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  charge: Schema.String,
  amount: Schema.Int,
  status: Schema.Literal("pending", "succeeded", "failed"),
  failure_code: Schema.NullOr(Schema.String),
  failure_message: Schema.NullOr(Schema.String)
})

/** A subscription the sandbox runs, with the invoice its last charge attempt was for (if any). */
const SubscriptionObject = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  status: Schema.Literal("trialing", "active", "past_due", "unpaid", "canceled", "incomplete_expired")
})

const SubscriptionInvoiceObject = Schema.Struct({
  id: Schema.String,
  period_start: Schema.Int,
  period_end: Schema.Int,
  amount: Schema.Int,
  currency: Schema.String,
  attempt: Schema.Int,
  status: Schema.Literal("paid", "failed"),
  charge: Schema.String,
  failure_code: Schema.NullOr(Schema.String),
  next_attempt: Schema.NullOr(Schema.Int)
})

/** A dispute of a charge as the sandbox's webhooks show it (times in epoch milliseconds). */
export const DisputeObject = Schema.Struct({
  id: Schema.String,
  charge: Schema.String,
  charge_reference: Schema.String,
  amount: Schema.Int,
  currency: Schema.String,
  status: Schema.Literal("needs_response", "under_review", "won", "lost"),
  reason: Schema.Literal("fraudulent", "product_not_received"),
  evidence_due_by: Schema.Int,
  fee: Schema.Int,
  occurred: Schema.Int
})

/** The body of a sandbox webhook: one event about one charge, refund, subscription or dispute. */
export const SandboxWebhook = Schema.Union(
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("charge.updated"),
    created: Schema.Int,
    data: Schema.Struct({ charge: ChargeObject })
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("refund.updated"),
    created: Schema.Int,
    data: Schema.Struct({ refund: RefundObject })
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("subscription.updated"),
    created: Schema.Int,
    data: Schema.Struct({ subscription: SubscriptionObject, invoice: Schema.NullOr(SubscriptionInvoiceObject) })
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("dispute.updated"),
    created: Schema.Int,
    data: Schema.Struct({ dispute: DisputeObject })
  })
)
export type SandboxWebhook = typeof SandboxWebhook.Type

export const chargeObject = (charge: SandboxCharge): typeof ChargeObject.Type => ({
  id: charge.id,
  reference: charge.reference,
  merchant_reference: charge.merchantReference,
  amount: charge.amount,
  currency: charge.currency,
  token: charge.token,
  capture: charge.capture,
  status: charge.status,
  amount_captured: charge.amountCaptured,
  failure_code: charge.failureCode,
  failure_message: charge.failureMessage
})

export const refundObject = (refund: SandboxRefund): typeof RefundObject.Type => ({
  id: refund.id,
  reference: refund.reference,
  charge: refund.chargeId,
  amount: refund.amount,
  status: refund.status,
  failure_code: refund.failureCode,
  failure_message: refund.failureMessage
})

/** A subscription webhook in the connector port's terms. */
export const subscriptionEventOf = (event: Extract<SandboxWebhook, { type: "subscription.updated" }>) => {
  const { invoice, subscription } = event.data
  return ProviderEvent.SubscriptionUpdated({
    eventId: event.id,
    reference: subscription.reference,
    pspSubscriptionId: subscription.id,
    status: subscription.status,
    invoice: invoice === null ? null : {
      pspInvoiceId: invoice.id,
      periodStartMillis: invoice.period_start,
      periodEndMillis: invoice.period_end,
      amount: invoice.amount,
      currency: invoice.currency,
      attempt: invoice.attempt,
      outcome: invoice.status,
      failureCode: invoice.failure_code,
      nextAttemptMillis: invoice.next_attempt
    }
  }) as Extract<ProviderEvent, { readonly _tag: "SubscriptionUpdated" }>
}

const decodeWebhook = Schema.decodeUnknown(Schema.parseJson(SandboxWebhook))
const encodeWebhook = Schema.encodeSync(Schema.parseJson(SandboxWebhook))

/** The exact bytes and signature header the sandbox sends for `webhook`. */
export const signSandboxWebhook = (webhook: SandboxWebhook, secret: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const body = new TextEncoder().encode(encodeWebhook(webhook))
    const seconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    return { body, signature: yield* signatureHeader([Redacted.value(secret)], seconds, body) }
  })

/**
 * Verifies a sandbox webhook like a merchant verifies ours (`Service-Signature` over the raw bytes,
 * 300 s tolerance) and reads the event in it in the connector port's terms.
 */
export const readSandboxWebhook = (
  webhook: IncomingWebhook,
  webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>,
  baseUrl: string
) =>
  Effect.gen(function*() {
    const secret = yield* Effect.mapError(webhookSecret, () => new WebhookRejected({ reason: "the connection has no webhook secret" }))
    yield* verifySignature({
      header: webhook.headers[SIGNATURE_HEADER],
      body: webhook.body,
      secrets: [Redacted.value(secret)],
      nowSeconds: Math.floor((yield* Clock.currentTimeMillis) / 1000)
    }).pipe(Effect.mapError((error) => new WebhookRejected({ reason: `signature ${error.reason}` })))
    const event = yield* decodeWebhook(new TextDecoder().decode(webhook.body)).pipe(
      Effect.mapError(() => new WebhookRejected({ reason: "the body is not a sandbox event" }))
    )
    if (event.type === "charge.updated") {
      const charge = event.data.charge
      return [
        ProviderEvent.PaymentUpdated({
          eventId: event.id,
          reference: charge.reference,
          pspPaymentId: charge.id,
          outcome: outcomeOfCharge({
            id: charge.id,
            token: charge.token,
            status: charge.status,
            amountCaptured: charge.amount_captured,
            failureCode: charge.failure_code,
            failureMessage: charge.failure_message
          }, baseUrl)
        })
      ]
    }
    if (event.type === "subscription.updated") return [subscriptionEventOf(event)]
    if (event.type === "dispute.updated") return [disputeEventOf(event.id, event.data.dispute)]
    const refund = event.data.refund
    return [
      ProviderEvent.RefundUpdated({
        eventId: event.id,
        reference: refund.reference,
        pspRefundId: refund.id,
        outcome: refundOutcome({
          id: refund.id,
          status: refund.status,
          failureCode: refund.failure_code,
          failureMessage: refund.failure_message
        })
      })
    ]
  })
