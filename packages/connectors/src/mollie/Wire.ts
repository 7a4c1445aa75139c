import { Schema } from "effect"

/**
 * Mollie's Payments API v2 as this connector reads it (the fields we use; Mollie sends more), from
 * its published OpenAPI document (`components/schemas/payment-response`, `entity-refund-response`,
 * `capture-response`, `error-response`). Answers are `application/hal+json`.
 */

/** The metadata key under which every payment and refund we create carries our reference. */
export const REFERENCE_KEY = "reference"

export const Amount = Schema.Struct({ currency: Schema.String, value: Schema.String })

const Link = Schema.Struct({ href: Schema.String })

/** Our metadata comes back as the object we sent; Mollie allows other shapes, which are not ours. */
const Metadata = Schema.optional(Schema.NullOr(Schema.Unknown))

/** A payment's status (`components/schemas/payment-status`); unknown values are allowed by Mollie's document. */
export type PaymentStatus = "open" | "pending" | "authorized" | "paid" | "canceled" | "expired" | "failed"

export const Payment = Schema.Struct({
  resource: Schema.Literal("payment"),
  id: Schema.String,
  mode: Schema.String,
  status: Schema.String,
  amount: Amount,
  amountCaptured: Schema.optional(Amount),
  amountRefunded: Schema.optional(Amount),
  method: Schema.optional(Schema.NullOr(Schema.String)),
  metadata: Metadata,
  captureMode: Schema.optional(Schema.NullOr(Schema.String)),
  webhookUrl: Schema.optional(Schema.NullOr(Schema.String)),
  statusReason: Schema.optional(Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String }))),
  details: Schema.optional(Schema.NullOr(Schema.Struct({
    cardLabel: Schema.optional(Schema.NullOr(Schema.String)),
    cardNumber: Schema.optional(Schema.NullOr(Schema.String)),
    cardCountryCode: Schema.optional(Schema.NullOr(Schema.String)),
    failureReason: Schema.optional(Schema.NullOr(Schema.String))
  }))),
  _links: Schema.Struct({ checkout: Schema.optional(Schema.NullOr(Link)) })
})
export type Payment = typeof Payment.Type

export const Refund = Schema.Struct({
  resource: Schema.Literal("refund"),
  id: Schema.String,
  status: Schema.String,
  amount: Amount,
  paymentId: Schema.String,
  metadata: Metadata
})
export type Refund = typeof Refund.Type

/** `GET /v2/payments/{id}/refunds`: a page of the payment's refunds. */
export const RefundList = Schema.Struct({
  count: Schema.Number,
  _embedded: Schema.Struct({ refunds: Schema.Array(Refund) }),
  _links: Schema.Struct({ next: Schema.optional(Schema.NullOr(Link)) })
})

/** A chargeback (`entity-chargeback`): the amount the customer's bank took back; `reversedAt` once it was given back. */
export const Chargeback = Schema.Struct({
  resource: Schema.Literal("chargeback"),
  id: Schema.String,
  amount: Amount,
  reason: Schema.optional(Schema.NullOr(Schema.Struct({ code: Schema.String, description: Schema.optional(Schema.String) }))),
  paymentId: Schema.String,
  createdAt: Schema.String,
  reversedAt: Schema.optional(Schema.NullOr(Schema.String))
})
export type Chargeback = typeof Chargeback.Type

/** `GET /v2/payments/{id}/chargebacks`: the payment's chargebacks. */
export const ChargebackList = Schema.Struct({ _embedded: Schema.Struct({ chargebacks: Schema.Array(Chargeback) }) })

export const Capture = Schema.Struct({
  resource: Schema.Literal("capture"),
  id: Schema.String,
  status: Schema.String,
  amount: Schema.optional(Schema.NullOr(Amount)),
  paymentId: Schema.String,
  metadata: Metadata
})
export type Capture = typeof Capture.Type

/** `GET /v2/payments/{id}/captures`: the payment's captures. */
export const CaptureList = Schema.Struct({ _embedded: Schema.Struct({ captures: Schema.Array(Capture) }) })

/** Every non-2xx answer (`components/schemas/error-response`). */
export const MollieError = Schema.Struct({
  status: Schema.Number,
  title: Schema.String,
  detail: Schema.String,
  field: Schema.optional(Schema.String)
})
export type MollieError = typeof MollieError.Type

/** Our reference as the metadata of something we created, when it carries one. */
export const referenceOf = (metadata: unknown): string | null => {
  if (typeof metadata !== "object" || metadata === null) return null
  const value = (metadata as Record<string, unknown>)[REFERENCE_KEY]
  return typeof value === "string" && value !== "" ? value : null
}
