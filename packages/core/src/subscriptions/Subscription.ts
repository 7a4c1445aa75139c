import { Schema } from "effect"
import { Metadata } from "../domain/Metadata.js"
import { RequestBody } from "../domain/RequestBody.js"
import { Identifier, Url } from "../domain/Text.js"
import { Timestamp } from "../domain/Timestamp.js"
import { CardToken } from "../payments/Payment.js"
import { Invoice } from "./Invoice.js"

export const SubscriptionStatus = Schema.Literal(
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "unpaid",
  "canceled"
)
export type SubscriptionStatus = typeof SubscriptionStatus.Type

/** `native`: the PSP runs the schedule; `orchestrator`: this service's worker does. */
export const Engine = Schema.Literal("native", "orchestrator")

/** A plan change waiting for the next period. */
export const PendingUpdate = Schema.Struct({ plan_id: Schema.String, effective_at: Timestamp })

const fields = {
  id: Schema.String,
  status: SubscriptionStatus,
  customer_id: Schema.String,
  plan_id: Schema.String,
  provider: Schema.String,
  engine: Engine,
  /** The stored payment method token every period is charged with. */
  payment_method: Schema.String,
  current_period_start: Timestamp,
  current_period_end: Timestamp,
  /** Periods are counted from here, so anchor days hold (Jan 31 → Feb 28 → Mar 31). */
  billing_cycle_anchor: Timestamp,
  cancel_at_period_end: Schema.Boolean,
  canceled_at: Schema.NullOr(Timestamp),
  trial_end: Schema.NullOr(Timestamp),
  pending_update: Schema.NullOr(PendingUpdate),
  provider_subscription_id: Schema.NullOr(Schema.String),
  test_clock: Schema.NullOr(Schema.String),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  livemode: Schema.Boolean
}

/** As stored: what the schedule needs besides what the API shows. */
export class SubscriptionRecord extends Schema.Class<SubscriptionRecord>("SubscriptionRecord")({
  ...fields,
  /** The provider was forced by the request: dunning retries stay on it instead of being routed. */
  provider_forced: Schema.Boolean,
  /** Where `on_session` first charges send the customer back after 3D Secure. */
  return_url: Schema.NullOr(Schema.String),
  latest_invoice_id: Schema.NullOr(Schema.String),
  /** When the schedule next has something to do (renewal, retry, trial end, expiry); null: nothing. */
  next_run_at: Schema.NullOr(Timestamp)
}) {}

export class Subscription extends Schema.Class<Subscription>("Subscription")({
  object: Schema.Literal("subscription"),
  ...fields,
  latest_invoice: Schema.NullOr(Invoice)
}) {}

export const subscriptionView = (record: SubscriptionRecord, latestInvoice: Invoice | null): Subscription => {
  const { latest_invoice_id: _1, next_run_at: _2, provider_forced: _3, return_url: _4, ...shown } = record
  return new Subscription({ ...shown, object: "subscription", latest_invoice: latestInvoice })
}

/**
 * The card a subscription charges: the seed's token string, or the payments' object
 * `{"type":"card","token":…}`; either way the token is what is kept.
 */
export const SubscriptionPaymentMethod = Schema.transform(
  Schema.Union(
    Identifier,
    Schema.Struct({ type: Schema.Literal("card"), token: CardToken }).annotations({ identifier: "SubscriptionCard" })
  ),
  Identifier,
  { strict: true, decode: (method) => typeof method === "string" ? method : method.token, encode: (token) => token }
)

/** Body of `POST /v1/subscriptions`. */
export const CreateSubscription = RequestBody("CreateSubscription", {
  customer: Identifier,
  plan: Identifier,
  payment_method: SubscriptionPaymentMethod,
  provider: Schema.optional(Identifier),
  engine: Schema.optional(Engine),
  trial_days: Schema.optional(Schema.Int.pipe(Schema.between(0, 730))),
  /** Where the customer comes back after 3D Secure on the first charge; without it, our page saying the window can be closed. */
  return_url: Schema.optional(Url),
  metadata: Schema.optional(Metadata)
})
export type CreateSubscription = typeof CreateSubscription.Type

/** Body of `POST /v1/subscriptions/{id}`; `payment_method` replaces the stored token for later charges. */
export const UpdateSubscription = RequestBody("UpdateSubscription", {
  plan: Schema.optional(Identifier),
  cancel_at_period_end: Schema.optional(Schema.Boolean),
  payment_method: Schema.optional(SubscriptionPaymentMethod),
  metadata: Schema.optional(Metadata)
})
export type UpdateSubscription = typeof UpdateSubscription.Type

export const CancelSubscription = RequestBody("CancelSubscription", {
  at_period_end: Schema.optional(Schema.Boolean)
})
export type CancelSubscription = typeof CancelSubscription.Type

export const SubscriptionListFilter = Schema.Struct({
  status: Schema.optional(SubscriptionStatus),
  customer: Schema.optional(Identifier),
  plan: Schema.optional(Identifier),
  /** Only the subscriptions of this test clock's customers. */
  test_clock: Schema.optional(Identifier)
})
export type SubscriptionListFilter = typeof SubscriptionListFilter.Type
