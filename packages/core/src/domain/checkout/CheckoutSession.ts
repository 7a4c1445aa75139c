import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field, optionalField } from "../Field.js"
import { Metadata } from "../Metadata.js"
import { Amount } from "../Money.js"
import { CardMethodInput, Failure, NextAction, Payment, PaymentStatus, RedirectMethodInput } from "../payments/Payment.js"
import { CARD_METHOD, REDIRECT_METHODS } from "../payments/PaymentMethodTypes.js"
import { RequestBody } from "../RequestBody.js"
import { Identifier, Text, Url } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

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
  type: field(Schema.String, "The wallet or local method (`paypal`, `ideal`, `bancontact`)."),
  provider: field(Schema.String, "The provider connection that takes it (its `name`)."),
  /** What the shopper is told the PSP is called: the connection's `display_name`. */
  display_name: field(Schema.String, "The name shown on its button.")
}).annotations({ identifier: "CheckoutWallet" })
export type CheckoutWallet = typeof CheckoutWallet.Type

/** What the drop-in needs to mount the card form of the session's current provider, and its wallet buttons. */
export const CheckoutUi = Schema.Struct({
  /**
   * Who the shopper pays, as they see it: the organization's `display_name` in the session's mode,
   * taken when the session is made or rerouted. Sessions made before it was kept have none.
   */
  merchant_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description:
      "Who the customer pays, as the drop-in and the hosted page name it: the organization's `display_name` when the session was created or last rerouted."
  }),
  provider: field(Schema.String, "The provider connection whose card form the drop-in mounts (its `name`)."),
  /** What the shopper is told the PSP is called: the connection's `display_name`, never its name; none when it has none. */
  display_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description: "The provider's name as the customer sees it (its connection's `display_name`), or `null`: the drop-in then names no provider."
  }),
  /** The connection's type (`sandbox`, `stripe`, …): which browser adapter of the drop-in mounts its form. */
  type: field(Schema.String, "That connection's type (`sandbox`, `stripe`, `adyen`, …): which form to mount."),
  publishable_key: field(Schema.NullOr(Schema.String), "The PSP's public key for its card form in the browser, or `null` when it needs none."),
  /**
   * The service's own card form (the vault's) when the connection takes vaulted cards: the card is
   * typed there, vaulted under the session's client secret, and the session confirmed with its `pm_…`,
   * which a reroute to another PSP pays with again. Sessions made before it existed have none.
   */
  card_form_url: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description:
      "The address of the service's card form (the vault's), whose `pm_…` confirms the session and pays again after a reroute, when the provider takes vaulted cards; " +
      "`null`: the provider's own form (`type`)."
  }),
  methods: field(Schema.Array(Schema.String), "The methods this provider offers in the session (`card`, …)."),
  /** Only when `allowed_methods` names a redirect method: each such method with its connection. */
  wallets: optionalField(Schema.Array(CheckoutWallet), "Wallets and local methods the session allows, each with the connection that takes it.")
}).annotations({ identifier: "CheckoutUi" })
export type CheckoutUi = typeof CheckoutUi.Type

/** The Payment as a customer's browser may see it: no token, metadata or attempts. */
export const CheckoutPaymentPublic = Schema.Struct({
  id: field(Schema.String, "The payment's id (`pay_…`)."),
  status: field(PaymentStatus, "The payment's status."),
  amount: field(Amount, "The amount, in minor units of `currency`."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  provider: field(Schema.String, "The provider connection that processed it."),
  next_action: field(Schema.NullOr(NextAction), "What the customer must do next (3D Secure, a wallet approval), or `null`."),
  failure: field(Schema.NullOr(Failure), "Why it failed, or `null`.")
}).annotations({ identifier: "CheckoutPaymentPublic" })
export type CheckoutPaymentPublic = typeof CheckoutPaymentPublic.Type

/** The fields every view of a session begins with, in this order. */
const sessionHead = {
  object: field(Schema.Literal("checkout.session"), "Always `checkout.session`."),
  id: field(Schema.String, "The session's id (`cs_…`)."),
  status: field(CheckoutSessionStatus, "`open`, `processing`, `complete`, `payment_failed` (reroute or cancel), `cancelled` or `expired`."),
  amount: field(Amount, "The amount to pay, in minor units of `currency`."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  ui: field(CheckoutUi, "What the drop-in shows: the provider whose form it mounts, and the wallets."),
  allowed_methods: field(
    Schema.NullOr(Schema.Array(Schema.String)),
    "The payment methods the customer may use, or `null` for every method the provider offers."
  )
}

/**
 * A session as it is stored: everything but its client secret, which is made from the id when shown
 * (`ClientSecrets.ts`). Events carry exactly this (webhooks leave the service).
 */
export class CheckoutSessionRecord extends Schema.Class<CheckoutSessionRecord>("CheckoutSessionRecord")({
  ...sessionHead,
  success_url: field(Schema.String, "Where the customer goes after paying (`{CHECKOUT_SESSION_ID}` is replaced by the id)."),
  cancel_url: field(Schema.String, "Where the customer goes on cancelling."),
  return_url: field(Schema.NullOr(Schema.String), "Where the customer comes back after 3D Secure or a wallet approval, or `null` for the hosted page."),
  locale: field(Schema.NullOr(Schema.String), "The language of the drop-in (`en`, `fr`, `de`), or `null` for the browser's."),
  customer_email: field(Schema.NullOr(Schema.String), "The customer's email, or `null`."),
  customer_id: field(Schema.NullOr(Schema.String), "The customer (`cus_…`), or `null`."),
  country: field(Schema.NullOr(Schema.String), "The customer's country (ISO 3166-1 alpha-2), which routing rules may match, or `null`."),
  /** Providers a reroute moved away from; never chosen again for this session. */
  excluded_providers: field(Schema.Array(Schema.String), "Providers left out after they declined this session (reroutes)."),
  metadata: field(Metadata, "Your own key-value pairs, as sent; also put on the payment."),
  /** The latest payment; every payment made for the session is in `payment_ids`, oldest first. */
  payment_id: field(Schema.NullOr(Schema.String), "The latest payment made in the session (`pay_…`), or `null`."),
  payment_ids: field(Schema.Array(Schema.String), "Every payment made in the session, oldest first (one per provider tried)."),
  payment: field(Schema.NullOr(Payment), "The latest payment, with `expand=payment`; else `null`."),
  expires_at: field(Timestamp, "When the session expires if not paid (ISO 8601 UTC)."),
  created_at: field(Timestamp, "When the session was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
}) {}

/** The full view (server key): the record with its client secret; `payment` is filled by `expand=payment`. */
export class CheckoutSession extends CheckoutSessionRecord.extend<CheckoutSession>("CheckoutSession")({
  client_secret: field(Schema.String, "Hand this to the customer's browser (drop-in or hosted page): it opens this session only, in its public view.")
}) {}

/** What the drop-in reads with the client secret: exactly the seed's list of fields. */
export const CheckoutSessionPublic = Schema.Struct({
  ...sessionHead,
  locale: field(Schema.NullOr(Schema.String), "The language of the drop-in, or `null` for the browser's."),
  success_url: field(Schema.String, "Where the customer goes after paying."),
  cancel_url: field(Schema.String, "Where the customer goes on cancelling."),
  return_url: field(Schema.NullOr(Schema.String), "Where the customer comes back after 3D Secure, or `null`."),
  payment: field(Schema.NullOr(CheckoutPaymentPublic), "The latest payment of the session, as far as the browser may see it, or `null`."),
  expires_at: field(Timestamp, "When the session expires if not paid (ISO 8601 UTC).")
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
  amount: field(Amount, "The amount to pay, in minor units of `currency`."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  success_url: field(Url, "Where to send the customer after paying; `{CHECKOUT_SESSION_ID}` is replaced by the id."),
  cancel_url: field(Url, "Where to send the customer on cancelling."),
  return_url: optionalField(Url, "Where the customer comes back after 3D Secure or a wallet approval, when you mount the drop-in in your own page."),
  allowed_methods: optionalField(
    Schema.Array(CheckoutMethodType).pipe(Schema.minItems(1), Schema.maxItems(10)),
    "The payment methods the customer may use (`card`, `paypal`, …); default every method the provider offers."
  ),
  locale: optionalField(Schema.Literal(...LOCALES), "The drop-in's language: `en`, `fr` or `de`; default the browser's."),
  customer_email: optionalField(
    Text.pipe(Schema.maxLength(320), Schema.pattern(/^[^@\s]+@[^@\s]+$/, { message: () => "must be an email address" })),
    "The customer's email, for your records and the PSP's."
  ),
  customer_id: optionalField(Identifier, "The customer (`cus_…`) paying, to find the payment later."),
  country: optionalField(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)), "The customer's country (ISO 3166-1 alpha-2), which routing rules may match."),
  provider: optionalField(Identifier, "Forces this provider connection (its `name`); without it, routing rules choose."),
  expires_in: optionalField(
    Schema.Int.pipe(Schema.between(EXPIRES_IN_MIN, EXPIRES_IN_MAX)),
    "Seconds until the session expires: 1 800 to 86 400; default 86 400 (24 hours)."
  ),
  metadata: optionalField(Metadata, "Your own key-value pairs, also put on the payment.")
})
export type CreateCheckoutSession = typeof CreateCheckoutSession.Type

/**
 * Body of `POST /v1/checkout/sessions/{id}/confirm`: the token the provider's card form made, or an
 * allowed redirect method (`{ "type": "paypal" }`) whose `next_action` takes the customer to the PSP.
 */
export const ConfirmCheckout = RequestBody("ConfirmCheckout", {
  payment_method: field(
    Schema.Union(CardMethodInput, RedirectMethodInput),
    "The token the provider's card form made (`{\"type\": \"card\", \"token\": …}`), or an allowed redirect method (`{\"type\": \"paypal\"}`)."
  )
})
export type ConfirmCheckout = typeof ConfirmCheckout.Type

/** Body of `POST /v1/checkout/sessions/{id}/reroute`. */
export const RerouteCheckout = RequestBody("RerouteCheckout", {
  exclude_provider: optionalField(Identifier, "The provider that just declined; every provider that declined the session is left out anyway.")
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
