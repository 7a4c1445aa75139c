import { AuthorizationOutcome, type CardDetails, failureMessage, RefundOutcome } from "@orchestrator/core"
import { Schema } from "effect"
import { fromStripeAmount } from "./StripeAmounts.js"
import { failureOf, StripeError } from "./StripeErrors.js"

/** The metadata key under which every object we create carries our reference (attempt or refund id). */
export const REFERENCE_KEY = "reference"

const Card = Schema.Struct({
  brand: Schema.optional(Schema.NullOr(Schema.String)),
  last4: Schema.optional(Schema.NullOr(Schema.String)),
  country: Schema.optional(Schema.NullOr(Schema.String)),
  /**
   * The scheme's id of the charge (Visa's Transaction ID, Mastercard's Trace ID). Newer than the
   * 2022-04 document, in Stripe's Charge reference today; an added field, so every API version gets it.
   */
  network_transaction_id: Schema.optional(Schema.NullOr(Schema.String))
})

/** A PaymentIntent (API version 2020-08-27, which still lists its charges), the fields we read. */
export const PaymentIntent = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("payment_intent"),
  status: Schema.String,
  amount: Schema.Number,
  amount_received: Schema.optional(Schema.Number),
  currency: Schema.String,
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  cancellation_reason: Schema.optional(Schema.NullOr(Schema.String)),
  next_action: Schema.optional(Schema.NullOr(Schema.Struct({
    type: Schema.String,
    redirect_to_url: Schema.optional(Schema.NullOr(Schema.Struct({ url: Schema.optional(Schema.NullOr(Schema.String)) })))
  }))),
  last_payment_error: Schema.optional(Schema.NullOr(StripeError)),
  charges: Schema.optional(Schema.Struct({
    data: Schema.Array(Schema.Struct({
      payment_method_details: Schema.optional(Schema.NullOr(Schema.Struct({ card: Schema.optional(Schema.NullOr(Card)) })))
    }))
  }))
})
export type PaymentIntent = typeof PaymentIntent.Type

export const PaymentIntentSearch = Schema.Struct({ data: Schema.Array(PaymentIntent) })

/** A Refund, the fields we read. */
export const Refund = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("refund"),
  amount: Schema.Number,
  currency: Schema.String,
  status: Schema.optional(Schema.NullOr(Schema.String)),
  failure_reason: Schema.optional(Schema.NullOr(Schema.String)),
  metadata: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String }))),
  payment_intent: Schema.optional(Schema.NullOr(Schema.String))
})
export type Refund = typeof Refund.Type

export const RefundList = Schema.Struct({ data: Schema.Array(Refund) })

/** A webhook event; its object is read according to its type. */
export const StripeEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  /** When it happened, in seconds: what orders a dispute's news. */
  created: Schema.optional(Schema.Int),
  data: Schema.Struct({ object: Schema.Unknown })
})

const chargedCardOf = (intent: PaymentIntent) => intent.charges?.data.at(-1)?.payment_method_details?.card

const cardOf = (intent: PaymentIntent): CardDetails => {
  const card = chargedCardOf(intent)
  return {
    brand: card?.brand ?? null,
    last4: card?.last4 ?? null,
    country: card?.country?.toUpperCase() ?? null
  }
}

/** What a PaymentIntent's status means for our payment. */
export const outcomeOfIntent = (intent: PaymentIntent): AuthorizationOutcome => {
  const card = cardOf(intent)
  const networkTransactionId = chargedCardOf(intent)?.network_transaction_id ?? undefined
  const refused = (code: string, providerMessage: string | undefined, retryable = false) =>
    AuthorizationOutcome.Refused({ pspPaymentId: intent.id, code, message: failureMessage(code), retryable, card, providerMessage })
  switch (intent.status) {
    case "succeeded":
      return AuthorizationOutcome.Authorized({
        pspPaymentId: intent.id,
        captured: true,
        amountCaptured: fromStripeAmount(intent.amount_received ?? intent.amount, intent.currency),
        card,
        networkTransactionId
      })
    case "requires_capture":
      return AuthorizationOutcome.Authorized({ pspPaymentId: intent.id, captured: false, amountCaptured: 0, card, networkTransactionId })
    case "requires_action": {
      const url = intent.next_action?.redirect_to_url?.url
      // We always confirm with a return_url, so Stripe answers with a redirect; anything else (an
      // SDK-only action) is an action this server-side flow cannot show the customer.
      return url
        ? AuthorizationOutcome.ActionRequired({ pspPaymentId: intent.id, redirectUrl: url, card })
        : refused("authentication_unsupported", `Stripe asked for an action of type '${intent.next_action?.type ?? "unknown"}'`)
    }
    case "processing":
    case "requires_confirmation":
      return AuthorizationOutcome.Pending({ pspPaymentId: intent.id, card })
    case "canceled":
      return refused("canceled", intent.cancellation_reason ?? undefined)
    default: {
      // `requires_payment_method`: the attempt failed (a decline, a failed 3DS) and the intent waits for another.
      const failure = intent.last_payment_error
        ? failureOf(intent.last_payment_error, 402)
        : { code: "card_declined", providerMessage: undefined, retryable: false }
      return refused(failure.code, failure.providerMessage, failure.retryable)
    }
  }
}

/** What a Refund's status means for our refund. */
export const outcomeOfRefund = (refund: Refund): RefundOutcome => {
  switch (refund.status) {
    case "succeeded":
      return RefundOutcome.Succeeded({ pspRefundId: refund.id })
    case "failed":
    case "canceled": {
      const code = refund.status === "canceled" ? "refund_canceled" : "refund_failed"
      return RefundOutcome.Failed({
        pspRefundId: refund.id,
        code,
        message: failureMessage(code),
        providerMessage: refund.failure_reason ?? undefined
      })
    }
    default:
      // `pending`, `requires_action`: Stripe tells later, by webhook.
      return RefundOutcome.Pending({ pspRefundId: refund.id })
  }
}
