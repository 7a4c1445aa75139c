import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { Metadata } from "../domain/Metadata.js"
import { Amount, MinorUnits } from "../domain/Money.js"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString, Identifier, Text, Url } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { CARD_METHOD, REDIRECT_METHODS, type RedirectMethod } from "./PaymentMethodTypes.js"

export const PaymentStatus = Schema.Literal(
  "created",
  "processing",
  "requires_action",
  "requires_capture",
  "succeeded",
  "failed",
  "canceled"
)
export type PaymentStatus = typeof PaymentStatus.Type

/** The payment method as the API shows it; `brand`, `last4` and `country` come from the PSP when it knows them. */
/** How a payment's provider was chosen: forced by the request, the default provider, or a routing rule. */
export const PaymentRouting = Schema.Struct({
  strategy: Schema.Literal("forced", "default", "rules"),
  rule_id: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PaymentRouting" })
export type PaymentRouting = typeof PaymentRouting.Type

export class PaymentMethod extends Schema.Class<PaymentMethod>("PaymentMethod")({
  type: Schema.String,
  /** The PSP's card token; `null` for a redirect method (`paypal`), which has none. */
  token: Schema.NullOr(Schema.String),
  brand: Schema.NullOr(Schema.String),
  last4: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String)
}) {}

export class NextAction extends Schema.Class<NextAction>("NextAction")({
  type: Schema.Literal("redirect"),
  url: Schema.String
}) {}

export class Failure extends Schema.Class<Failure>("Failure")({
  code: Schema.String,
  message: Schema.String
}) {}

/**
 * `pending`: sent, no outcome yet (or the PSP said it will tell later). `unknown`: the PSP did not
 * answer in time, or the connection broke after sending; it may have acted, and reconciliation asks.
 */
export const AttemptStatus = Schema.Literal(
  "pending",
  "unknown",
  "requires_action",
  "requires_capture",
  "succeeded",
  "failed",
  "canceled"
)
export type AttemptStatus = typeof AttemptStatus.Type

/** An attempt whose outcome we still wait for: sent and not answered, or answered "later". */
export const awaitsOutcome = (attempt: { readonly status: AttemptStatus } | undefined) =>
  attempt !== undefined && (attempt.status === "pending" || attempt.status === "unknown")

/** One call to a PSP. Its id is also the PSP idempotency reference of that call. */
export class PaymentAttempt extends Schema.Class<PaymentAttempt>("PaymentAttempt")({
  object: Schema.Literal("payment_attempt"),
  id: Schema.String,
  provider: Schema.String,
  status: AttemptStatus,
  provider_payment_id: Schema.NullOr(Schema.String),
  error_code: Schema.NullOr(Schema.String),
  latency_ms: Schema.NullOr(Schema.NonNegativeInt),
  created_at: Timestamp
}) {}

export class Payment extends Schema.Class<Payment>("Payment")({
  object: Schema.Literal("payment"),
  id: Schema.String,
  status: PaymentStatus,
  amount: Amount,
  /** What was captured: `amount` unless a manual capture took less. Refunds draw on this. */
  amount_captured: MinorUnits,
  /** Pending and succeeded refunds; a failed refund gives its amount back. */
  amount_refunded: MinorUnits,
  currency: Currency,
  provider: Schema.String,
  provider_payment_id: Schema.NullOr(Schema.String),
  /** How `provider` was chosen: forced by the request, the default provider, or a routing rule. */
  routing: PaymentRouting,
  payment_method: PaymentMethod,
  customer_id: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  metadata: Metadata,
  capture: Schema.Boolean,
  /**
   * The customer is not present (a subscription renewal): the PSP is told so, and a challenge it
   * still asks for waits in `requires_action` for the customer to come back, return_url or not.
   */
  off_session: Schema.Boolean,
  return_url: Schema.NullOr(Schema.String),
  next_action: Schema.NullOr(NextAction),
  failure: Schema.NullOr(Failure),
  attempts: Schema.Array(PaymentAttempt),
  created_at: Timestamp,
  updated_at: Timestamp,
  livemode: Schema.Boolean
}) {}

/** Whether `text` is a card number (card brands' first digits, 13 to 19 digits, Luhn-valid). */
export const isCardNumber = (text: string) => {
  const digits = text.replace(/[ -]/g, "")
  if (!/^[2-6]\d{12,18}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/**
 * A PSP's token for the card (`tok_visa`, `pm_…`). A card number in its place would be stored and
 * shown back on every read: it is refused before anything keeps it.
 */
export const CardToken = Identifier.pipe(
  Schema.filter((token) => !isCardNumber(token) || "must be a token from the PSP's card form, never a card number")
)

/** A card: the PSP's token for it, and what the merchant's page already knows of it. */
export const CardMethodInput = Schema.Struct({
  type: Schema.Literal(CARD_METHOD),
  token: CardToken,
  brand: Schema.optional(Text.pipe(Schema.maxLength(50))),
  last4: Schema.optional(Schema.String.pipe(Schema.pattern(/^\d{4}$/))),
  country: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)))
}).annotations({ identifier: "CardMethodInput" })

/** A wallet or local method (`{ "type": "paypal" }`): no token, the customer approves at the PSP. */
const redirectMethodInput = (type: RedirectMethod) =>
  Schema.Struct({ type: Schema.Literal(type) })
    .annotations({ identifier: `${type.charAt(0).toUpperCase()}${type.slice(1)}MethodInput` })

/**
 * One member per method, each with its single `type`: a type none of them takes is then told as
 * "one of card, paypal, …", not as the first member's mismatch.
 */
export const RedirectMethodInput = Schema.Union(...REDIRECT_METHODS.map(redirectMethodInput))

export const PaymentMethodInput = Schema.Union(CardMethodInput, ...REDIRECT_METHODS.map(redirectMethodInput))
  .annotations({ identifier: "PaymentMethodInput" })
export type PaymentMethodInput = typeof PaymentMethodInput.Type

/** Body of `POST /v1/payments`. Unknown fields are refused. */
export const CreatePayment = RequestBody("CreatePayment", {
  amount: Amount,
  currency: Currency,
  payment_method: PaymentMethodInput,
  provider: Schema.optional(Identifier),
  customer_id: Schema.optional(Identifier),
  description: Schema.optional(BoundedString),
  capture: Schema.optional(Schema.Boolean),
  return_url: Schema.optional(Url),
  metadata: Schema.optional(Metadata)
})
export type CreatePayment = typeof CreatePayment.Type

export const CapturePayment = RequestBody("CapturePayment", {
  amount: Schema.optional(Amount)
})
export type CapturePayment = typeof CapturePayment.Type

export const CancelPayment = RequestBody("CancelPayment", {
  cancellation_reason: Schema.optional(BoundedString)
})
export type CancelPayment = typeof CancelPayment.Type

export const PaymentListFilter = Schema.Struct({
  status: Schema.optional(PaymentStatus),
  provider: Schema.optional(Identifier),
  currency: Schema.optional(Identifier),
  customer_id: Schema.optional(Identifier),
  test_clock: Schema.optional(Identifier)
})
export type PaymentListFilter = typeof PaymentListFilter.Type
