import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { Metadata } from "../domain/Metadata.js"
import { Amount } from "../domain/Money.js"
import { RequestBody } from "../domain/RequestBody.js"
import { Identifier, Text, Url } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { CardMethodInput, Failure, NextAction, Payment, PaymentStatus, RedirectMethodInput } from "../payments/Payment.js"
import { CARD_METHOD, REDIRECT_METHODS } from "../payments/PaymentMethodTypes.js"
import { DEFAULT_DISPLAY_NAME } from "../providers/ProviderConnection.js"

export const CheckoutSessionStatus = Schema.Literal(
  "open",
  "processing",
  "complete",
  "payment_failed",
  "cancelled",
  "expired"
)
export type CheckoutSessionStatus = typeof CheckoutSessionStatus.Type

/**
 * One allowed wallet or local method (`paypal`, `ideal`, …) and the connection routing gives it: the
 * drop-in shows a button for it, and confirming with it pays on that connection.
 */
export const CheckoutWallet = Schema.Struct({
  type: Schema.String,
  provider: Schema.String,
  /** What the shopper is told the PSP is called: the connection's `display_name`. */
  display_name: Schema.String
}).annotations({ identifier: "CheckoutWallet" })
export type CheckoutWallet = typeof CheckoutWallet.Type

/** What the drop-in needs to mount the card form of the session's current provider, and its wallet buttons. */
export const CheckoutUi = Schema.Struct({
  provider: Schema.String,
  /** What the shopper is told the PSP is called: the connection's `display_name`, never its name. */
  display_name: Schema.optionalWith(Schema.String, { default: () => DEFAULT_DISPLAY_NAME }),
  /** The connection's type (`sandbox`, `stripe`, …): which browser adapter of the drop-in mounts its form. */
  type: Schema.String,
  publishable_key: Schema.NullOr(Schema.String),
  methods: Schema.Array(Schema.String),
  /** Only when `allowed_methods` names a redirect method: each such method with its connection. */
  wallets: Schema.optional(Schema.Array(CheckoutWallet))
}).annotations({ identifier: "CheckoutUi" })
export type CheckoutUi = typeof CheckoutUi.Type

/** The Payment as a customer's browser may see it: no token, metadata or attempts. */
export const CheckoutPaymentPublic = Schema.Struct({
  id: Schema.String,
  status: PaymentStatus,
  amount: Amount,
  currency: Currency,
  provider: Schema.String,
  next_action: Schema.NullOr(NextAction),
  failure: Schema.NullOr(Failure)
}).annotations({ identifier: "CheckoutPaymentPublic" })
export type CheckoutPaymentPublic = typeof CheckoutPaymentPublic.Type

/** The fields every view of a session begins with, in this order. */
const sessionHead = {
  object: Schema.Literal("checkout.session"),
  id: Schema.String,
  status: CheckoutSessionStatus,
  amount: Amount,
  currency: Currency,
  ui: CheckoutUi,
  allowed_methods: Schema.NullOr(Schema.Array(Schema.String))
}

/**
 * A session as it is stored: everything but its client secret, which is made from the id when shown
 * (`ClientSecrets.ts`). Events carry exactly this (webhooks leave the service).
 */
export class CheckoutSessionRecord extends Schema.Class<CheckoutSessionRecord>("CheckoutSessionRecord")({
  ...sessionHead,
  success_url: Schema.String,
  cancel_url: Schema.String,
  return_url: Schema.NullOr(Schema.String),
  locale: Schema.NullOr(Schema.String),
  customer_email: Schema.NullOr(Schema.String),
  customer_id: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  /** Providers a reroute moved away from; never chosen again for this session. */
  excluded_providers: Schema.Array(Schema.String),
  metadata: Metadata,
  /** The latest payment; every payment made for the session is in `payment_ids`, oldest first. */
  payment_id: Schema.NullOr(Schema.String),
  payment_ids: Schema.Array(Schema.String),
  payment: Schema.NullOr(Payment),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  livemode: Schema.Boolean
}) {}

/** The full view (server key): the record with its client secret; `payment` is filled by `expand=payment`. */
export class CheckoutSession extends CheckoutSessionRecord.extend<CheckoutSession>("CheckoutSession")({
  client_secret: Schema.String
}) {}

/** What the drop-in reads with the client secret: exactly the seed's list of fields. */
export const CheckoutSessionPublic = Schema.Struct({
  ...sessionHead,
  locale: Schema.NullOr(Schema.String),
  success_url: Schema.String,
  cancel_url: Schema.String,
  return_url: Schema.NullOr(Schema.String),
  payment: Schema.NullOr(CheckoutPaymentPublic),
  expires_at: Timestamp
}).annotations({ identifier: "CheckoutSessionPublic" })
export type CheckoutSessionPublic = typeof CheckoutSessionPublic.Type

/** A session as its events carry it: the full view without the client secret (webhooks leave the service). */
export const CheckoutSessionEventObject = CheckoutSession.pipe(Schema.omit("client_secret"))
  .annotations({ identifier: "CheckoutSessionEventObject" })
export type CheckoutSessionEventObject = typeof CheckoutSessionEventObject.Type

export const toEventObject = (session: CheckoutSessionRecord): CheckoutSessionEventObject => {
  const { client_secret: _secret, ...rest } = session as CheckoutSessionRecord & { readonly client_secret?: string }
  return rest
}

export const toPublicPayment = (payment: Payment): CheckoutPaymentPublic => ({
  id: payment.id,
  status: payment.status,
  amount: payment.amount,
  currency: payment.currency,
  provider: payment.provider,
  next_action: payment.next_action,
  failure: payment.failure
})

export const toPublic = (session: CheckoutSessionRecord, payment: Payment | null): CheckoutSessionPublic => ({
  object: "checkout.session",
  id: session.id,
  status: session.status,
  amount: session.amount,
  currency: session.currency,
  ui: session.ui,
  allowed_methods: session.allowed_methods,
  locale: session.locale,
  success_url: session.success_url,
  cancel_url: session.cancel_url,
  return_url: session.return_url,
  payment: payment === null ? null : toPublicPayment(payment),
  expires_at: session.expires_at
})

export const LOCALES = ["en", "fr", "de"] as const

/** What a session may allow: cards and every redirect method the core knows (`PaymentMethodTypes.ts`). */
export const CheckoutMethodType = Schema.Literal(CARD_METHOD, ...REDIRECT_METHODS)

export const EXPIRES_IN_MIN = 1800
export const EXPIRES_IN_MAX = 86400

/** Body of `POST /v1/checkout/sessions`. */
export const CreateCheckoutSession = RequestBody("CreateCheckoutSession", {
  amount: Amount,
  currency: Currency,
  success_url: Url,
  cancel_url: Url,
  return_url: Schema.optional(Url),
  allowed_methods: Schema.optional(
    Schema.Array(CheckoutMethodType).pipe(Schema.minItems(1), Schema.maxItems(10))
  ),
  locale: Schema.optional(Schema.Literal(...LOCALES)),
  customer_email: Schema.optional(
    Text.pipe(Schema.maxLength(320), Schema.pattern(/^[^@\s]+@[^@\s]+$/, { message: () => "must be an email address" }))
  ),
  customer_id: Schema.optional(Identifier),
  country: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/))),
  provider: Schema.optional(Identifier),
  expires_in: Schema.optional(Schema.Int.pipe(Schema.between(EXPIRES_IN_MIN, EXPIRES_IN_MAX))),
  metadata: Schema.optional(Metadata)
})
export type CreateCheckoutSession = typeof CreateCheckoutSession.Type

/**
 * Body of `POST /v1/checkout/sessions/{id}/confirm`: the token the provider's card form made, or an
 * allowed redirect method (`{ "type": "paypal" }`) whose `next_action` takes the customer to the PSP.
 */
export const ConfirmCheckout = RequestBody("ConfirmCheckout", {
  payment_method: Schema.Union(CardMethodInput, RedirectMethodInput)
})
export type ConfirmCheckout = typeof ConfirmCheckout.Type

/** Body of `POST /v1/checkout/sessions/{id}/reroute`. */
export const RerouteCheckout = RequestBody("RerouteCheckout", {
  exclude_provider: Schema.optional(Identifier)
})
export type RerouteCheckout = typeof RerouteCheckout.Type

export const CheckoutSessionListFilter = Schema.Struct({
  status: Schema.optional(CheckoutSessionStatus)
})
export type CheckoutSessionListFilter = typeof CheckoutSessionListFilter.Type

/** `<session_id>_secret_<opaque>`: the session it opens is read from the secret itself. */
export const sessionIdOfSecret = (secret: string): string | null => {
  const match = /^(cs_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(secret)
  return match === null ? null : match[1]!
}
