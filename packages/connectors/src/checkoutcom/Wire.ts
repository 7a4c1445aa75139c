import { Schema } from "effect"

/** The shapes of Checkout.com's Unified Payments API (NAS) that this connector sends and reads. */

const Link = Schema.Struct({ href: Schema.String })

/** The card behind a payment, where Checkout.com says (`source.type: "card"`). */
export const ResponseSource = Schema.Struct({
  type: Schema.String,
  id: Schema.optional(Schema.String),
  scheme: Schema.optional(Schema.String),
  last4: Schema.optional(Schema.String),
  issuer_country: Schema.optional(Schema.String)
})
export type ResponseSource = typeof ResponseSource.Type

/** Our own fields echoed back in `metadata`: which capture the payment asked for, our payment id. */
export const Metadata = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** `POST /payments` answered 201: processed, `approved` or not. */
export const PaymentProcessed = Schema.Struct({
  id: Schema.String,
  action_id: Schema.optional(Schema.String),
  amount: Schema.Number,
  currency: Schema.String,
  approved: Schema.Boolean,
  status: Schema.String,
  response_code: Schema.optional(Schema.String),
  response_summary: Schema.optional(Schema.String),
  reference: Schema.optional(Schema.String),
  source: Schema.optional(ResponseSource),
  /** The scheme's id of the transaction: a stored card's later merchant-initiated charges name it. */
  scheme_id: Schema.optional(Schema.String)
})
export type PaymentProcessed = typeof PaymentProcessed.Type

/** `POST /payments` answered 202: pending, with the page to send the customer to (3DS, APM) if any. */
export const PaymentAccepted = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  reference: Schema.optional(Schema.String),
  _links: Schema.optional(Schema.Struct({ redirect: Schema.optional(Link) }))
})
export type PaymentAccepted = typeof PaymentAccepted.Type

const Balances = Schema.Struct({
  total_authorized: Schema.optional(Schema.Number),
  total_captured: Schema.optional(Schema.Number),
  total_refunded: Schema.optional(Schema.Number),
  total_voided: Schema.optional(Schema.Number)
})

/** `GET /payments/{id}`: the payment as it is now. */
export const PaymentDetails = Schema.Struct({
  id: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  approved: Schema.optional(Schema.Boolean),
  status: Schema.String,
  reference: Schema.optional(Schema.String),
  balances: Schema.optional(Balances),
  source: Schema.optional(ResponseSource),
  scheme_id: Schema.optional(Schema.String),
  metadata: Schema.optional(Metadata),
  _links: Schema.optional(Schema.Struct({ redirect: Schema.optional(Link) }))
})
export type PaymentDetails = typeof PaymentDetails.Type

/** One action on a payment (`GET /payments/{id}/actions`): an authorization, capture, refund… */
export const PaymentAction = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  amount: Schema.Number,
  approved: Schema.optional(Schema.Boolean),
  response_code: Schema.String,
  response_summary: Schema.optional(Schema.String),
  reference: Schema.optional(Schema.String)
})
export type PaymentAction = typeof PaymentAction.Type
export const PaymentActions = Schema.Array(PaymentAction)

/** A capture, void or refund answered 202: accepted, its `action_id` names it. */
export const ActionAccepted = Schema.Struct({
  action_id: Schema.String,
  reference: Schema.optional(Schema.String)
})

/** Checkout.com's error body (`ValidationError`, on 422 and 429). */
export const ErrorBody = Schema.Struct({
  request_id: Schema.optional(Schema.String),
  error_type: Schema.optional(Schema.String),
  error_codes: Schema.optional(Schema.Array(Schema.String))
})
export type ErrorBody = typeof ErrorBody.Type

/** A webhook (a workflow's webhook action): the event, its payment or action in `data`. */
export const WebhookEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  data: Schema.Struct({
    id: Schema.String,
    action_id: Schema.optional(Schema.String),
    amount: Schema.optional(Schema.Number),
    currency: Schema.optional(Schema.String),
    reference: Schema.optional(Schema.String),
    // A string on the wire; the document's example has it as a number.
    response_code: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
    response_summary: Schema.optional(Schema.String),
    source: Schema.optional(ResponseSource),
    metadata: Schema.optional(Metadata)
  })
})
export type WebhookEvent = typeof WebhookEvent.Type
