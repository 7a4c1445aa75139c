import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { encodedOnce } from "../EncodedOnce.js"
import { field, optionalField } from "../Field.js"
import type { AnswerSpec } from "../idempotency/KeyRun.js"
import { Metadata } from "../Metadata.js"
import { Amount, MinorUnits } from "../Money.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString, Identifier, Text, Url } from "../Text.js"
import { Timestamp } from "../Timestamp.js"
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
  strategy: field(
    Schema.Literal("forced", "default", "rules"),
    "`forced`: the request named `provider`; `default`: the organization's default provider; `rules`: a routing rule chose it."
  ),
  rule_id: field(Schema.NullOr(Schema.String), "The routing rule that chose the provider (`rule_…`), when `strategy` is `rules`; else `null`.")
}).annotations({ identifier: "PaymentRouting" })
export type PaymentRouting = typeof PaymentRouting.Type

export class PaymentMethod extends Schema.Class<PaymentMethod>("PaymentMethod")({
  type: field(Schema.String, "The method: `card`, or a wallet or local method (`paypal`, `ideal`, `bancontact`)."),
  /** The PSP's card token; `null` for a redirect method (`paypal`), which has none. */
  token: field(Schema.NullOr(Schema.String), "The PSP's card token (`tok_visa`, `pm_…`); `null` for a redirect method such as `paypal`, which has none."),
  brand: field(Schema.NullOr(Schema.String), "The card brand (`visa`, `mastercard`), when the PSP or the request told it; else `null`."),
  last4: field(Schema.NullOr(Schema.String), "The card number's last four digits, when known; else `null`."),
  country: field(Schema.NullOr(Schema.String), "The card's country (ISO 3166-1 alpha-2), when known; routing rules match it.")
}) {}

export class NextAction extends Schema.Class<NextAction>("NextAction")({
  type: field(Schema.Literal("redirect"), "Always `redirect`: send the customer's browser to `url`."),
  url: field(Schema.String, "The page where the customer completes the step (the 3D Secure challenge, the wallet's approval).")
}) {}

export class Failure extends Schema.Class<Failure>("Failure")({
  code: field(Schema.String, "Why, as a normalized code: `card_declined`, `insufficient_funds`, `expired_card`, `processing_error`, …"),
  message: field(Schema.String, "What the code means, in English, written by this service (never the PSP's own text).")
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
  object: field(Schema.Literal("payment_attempt"), "Always `payment_attempt`."),
  id: field(Schema.String, "The attempt's id (`att_…`), also the idempotency reference sent to the PSP for this call."),
  provider: field(Schema.String, "The provider connection the attempt was sent to (its `name`)."),
  status: field(
    AttemptStatus,
    "What the PSP said: `pending`, `unknown` (no answer in time; being reconciled), `requires_action`, `requires_capture`, `succeeded`, `failed` or `canceled`."
  ),
  provider_payment_id: field(Schema.NullOr(Schema.String), "The PSP's id for this payment (`ch_…`, `pi_…`), once it gave one."),
  error_code: field(Schema.NullOr(Schema.String), "The normalized failure code of a failed attempt (`card_declined`, `provider_unavailable`, …); else `null`."),
  latency_ms: field(Schema.NullOr(Schema.NonNegativeInt), "How long the PSP took to answer, in milliseconds; `null` without an answer."),
  created_at: field(Timestamp, "When the attempt was sent (ISO 8601 UTC).")
}) {}

export class Payment extends Schema.Class<Payment>("Payment")({
  object: field(Schema.Literal("payment"), "Always `payment`."),
  id: field(Schema.String, "The payment's id (`pay_…`)."),
  status: field(PaymentStatus, "`created`, `processing`, `requires_action` (3D Secure), `requires_capture` (authorized), `succeeded`, `failed` or `canceled`."),
  amount: field(Amount, "The amount to charge, in minor units of `currency` (1050 = 10.50 EUR)."),
  /** What was captured: `amount` unless a manual capture took less. Refunds draw on this. */
  amount_captured: field(MinorUnits, "What was captured, in minor units: `amount` unless a manual capture took less; refunds draw on it."),
  /** Pending and succeeded refunds; a failed refund gives its amount back. */
  amount_refunded: field(MinorUnits, "What pending and succeeded refunds took back, in minor units; a failed refund gives its amount back."),
  amount_disputed: field(
    MinorUnits,
    "What disputes hold back, in minor units: their amount while the provider has withdrawn it (given back when a dispute is won); it cannot be refunded."
  ),
  disputed: field(Schema.Boolean, "`true` once a customer disputed the payment (`GET /v1/disputes?payment_id=…`); the payment's `status` does not change."),
  currency: field(Currency, "ISO 4217 code in upper case, e.g. `EUR`."),
  provider: field(Schema.String, "The provider connection that processes the payment (its `name`, e.g. `sandbox_a`)."),
  provider_payment_id: field(Schema.NullOr(Schema.String), "The PSP's own id for the payment, once it gave one; look it up in the PSP's dashboard."),
  /** How `provider` was chosen: forced by the request, the default provider, or a routing rule. */
  routing: field(PaymentRouting, "How `provider` was chosen."),
  payment_method: field(PaymentMethod, "The payment method charged; card details only as far as the PSP reported them."),
  customer_id: field(Schema.NullOr(Schema.String), "The customer (`cus_…`) the payment is for, if any."),
  description: field(Schema.NullOr(Schema.String), "Your description of the payment, as sent."),
  metadata: field(Metadata, "Your own key-value pairs, as sent."),
  capture: field(Schema.Boolean, "`false` when the payment was only authorized, to capture later."),
  /**
   * The customer is not present (a subscription renewal): the PSP is told so, and a challenge it
   * still asks for waits in `requires_action` for the customer to come back, return_url or not.
   */
  off_session: field(
    Schema.Boolean,
    "`true` when the customer is not present (a subscription renewal): a challenge the PSP still asks for waits in `requires_action` for them to come back."
  ),
  return_url: field(Schema.NullOr(Schema.String), "Where the customer is sent back after 3D Secure or a wallet approval, with `payment_id` appended."),
  next_action: field(Schema.NullOr(NextAction), "What the customer must do next (`requires_action` only): open `url`; else `null`."),
  failure: field(Schema.NullOr(Failure), "Why the payment failed (`failed` only); else `null`."),
  attempts: field(Schema.Array(PaymentAttempt), "Every call made to a provider for this payment, oldest first, with what each answered."),
  created_at: field(Timestamp, "When the payment was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When the payment last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
}) {}

/** A payment's wire form, made once per instance for its row, its events and the response alike. */
export const PaymentEncoding = encodedOnce(Payment)

/** A payment as the answer a request keeps under its Idempotency-Key: its JSON, made once per instance. */
export const PaymentAnswer: AnswerSpec<Payment> = { schema: Payment }

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
  type: field(Schema.Literal(CARD_METHOD), "Always `card`."),
  token: field(CardToken, "The PSP's token for the card, from its card form (`tok_visa` in the sandbox). Never a card number: that is refused."),
  brand: optionalField(Text.pipe(Schema.maxLength(50)), "The card brand, if your page knows it (`visa`)."),
  last4: optionalField(Schema.String.pipe(Schema.pattern(/^\d{4}$/)), "The card number's last four digits, if your page knows them."),
  country: optionalField(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)), "The card's country (ISO 3166-1 alpha-2), if known; routing rules may match it.")
}).annotations({ identifier: "CardMethodInput" })

/** A wallet or local method (`{ "type": "paypal" }`): no token, the customer approves at the PSP. */
const redirectMethodInput = (type: RedirectMethod) =>
  Schema.Struct({ type: field(Schema.Literal(type), `Always \`${type}\`: the customer approves the payment at the PSP, through \`next_action.url\`.`) })
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
  amount: field(Amount, "The amount to charge, in minor units of `currency`: 1 to 99 999 999 (1050 = 10.50 EUR)."),
  currency: field(Currency, "ISO 4217 code in upper case, e.g. `EUR`."),
  payment_method: field(
    PaymentMethodInput,
    "What to charge: a card token (`{\"type\": \"card\", \"token\": \"tok_visa\"}`) or a redirect method (`{\"type\": \"paypal\"}`)."
  ),
  provider: optionalField(Identifier, "Forces this provider connection (its `name`); without it, the default provider or the routing rules choose."),
  customer_id: optionalField(Identifier, "The customer (`cus_…`) the payment is for, to find it later."),
  description: optionalField(BoundedString, "Your description of the payment, shown back as sent."),
  capture: optionalField(Schema.Boolean, "`false` to authorize only and capture later (`requires_capture`); default `true`."),
  return_url: optionalField(Url, "Where to send the customer back after 3D Secure or a wallet approval. Required for cards that need 3D Secure."),
  metadata: optionalField(Metadata, "Your own key-value pairs, e.g. your order id.")
})
export type CreatePayment = typeof CreatePayment.Type

export const CapturePayment = RequestBody("CapturePayment", {
  amount: optionalField(Amount, "How much to capture, in minor units: at most the authorized amount; default all of it.")
})
export type CapturePayment = typeof CapturePayment.Type

export const CancelPayment = RequestBody("CancelPayment", {
  cancellation_reason: optionalField(BoundedString, "Why, for your records.")
})
export type CancelPayment = typeof CancelPayment.Type

export const PaymentListFilter = Schema.Struct({
  status: Schema.optional(PaymentStatus),
  provider: Schema.optional(Identifier),
  currency: Schema.optional(Identifier),
  customer_id: Schema.optional(Identifier),
  test_clock: Schema.optional(Identifier),
  /** Not a filter: the list's order (`created_at` unless given). */
  order_by: Schema.optional(Schema.Literal("created_at", "id"))
})
export type PaymentListFilter = typeof PaymentListFilter.Type
