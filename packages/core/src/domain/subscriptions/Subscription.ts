import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { Metadata } from "../Metadata.js"
import { CardToken } from "../payments/Payment.js"
import { RequestBody } from "../RequestBody.js"
import { Identifier, Url } from "../Text.js"
import { Timestamp } from "../Timestamp.js"
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
export const PendingUpdate = Schema.Struct({
  plan_id: field(Schema.String, "The plan the subscription moves to."),
  effective_at: field(Timestamp, "When it does: the start of the next period.")
})

const fields = {
  id: field(Schema.String, "The subscription's id (`sub_…`)."),
  status: field(
    SubscriptionStatus,
    "`incomplete` (first charge not done), `incomplete_expired`, `trialing`, `active`, `past_due` (a charge failed, retrying), `unpaid` (every retry failed) or `canceled`."
  ),
  customer_id: field(Schema.String, "The customer billed (`cus_…`)."),
  plan_id: field(Schema.String, "The plan billed (`plan_…`)."),
  provider: field(Schema.String, "The provider connection that charges it (its `name`)."),
  engine: field(Engine, "`native`: the PSP runs the schedule and its webhooks drive the state; `orchestrator`: this service's worker charges each period."),
  /** The stored payment method token every period is charged with. */
  payment_method: field(Schema.String, "The stored payment method token each period is charged with."),
  current_period_start: field(Timestamp, "When the current period started (ISO 8601 UTC)."),
  current_period_end: field(Timestamp, "When the current period ends and the next is billed (ISO 8601 UTC)."),
  /** Periods are counted from here, so anchor days hold (Jan 31 → Feb 28 → Mar 31). */
  billing_cycle_anchor: field(Timestamp, "Periods are counted from here, so the anchor day holds (Jan 31 → Feb 28 → Mar 31)."),
  cancel_at_period_end: field(Schema.Boolean, "`true` when the subscription ends at `current_period_end` instead of renewing."),
  canceled_at: field(Schema.NullOr(Timestamp), "When it was canceled, or `null`."),
  trial_end: field(Schema.NullOr(Timestamp), "When the trial ends (ISO 8601 UTC), or `null` without a trial."),
  pending_update: field(Schema.NullOr(PendingUpdate), "A plan change waiting for the next period, or `null`."),
  provider_subscription_id: field(Schema.NullOr(Schema.String), "The PSP's own id for the subscription (`native` engine), or `null`."),
  test_clock: field(Schema.NullOr(Schema.String), "The test clock whose time the subscription lives on (test mode), or `null`."),
  metadata: field(Metadata, "Your own key-value pairs, as sent."),
  created_at: field(Timestamp, "When the subscription was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
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
  object: field(Schema.Literal("subscription"), "Always `subscription`."),
  ...fields,
  latest_invoice: field(
    Schema.NullOr(Invoice),
    "The invoice of the latest period with its latest payment (look there for `next_action` or a failure), or `null`."
  )
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
    Schema.Struct({
      type: field(Schema.Literal("card"), "Always `card`."),
      token: field(CardToken, "The PSP's token for the card.")
    }).annotations({ identifier: "SubscriptionCard" })
  ),
  Identifier,
  { strict: true, decode: (method) => typeof method === "string" ? method : method.token, encode: (token) => token }
)

/** Body of `POST /v1/subscriptions`. */
export const CreateSubscription = RequestBody("CreateSubscription", {
  customer: field(Identifier, "The customer to bill (`cus_…`)."),
  plan: field(Identifier, "The plan to bill (`plan_…`)."),
  payment_method: field(
    SubscriptionPaymentMethod,
    "The card to charge each period: its token (`tok_visa`), or `{\"type\": \"card\", \"token\": …}` as payments take it."
  ),
  provider: optionalField(Identifier, "Forces this provider connection (its `name`); without it, routing rules choose."),
  engine: optionalField(
    Engine,
    "Who runs the schedule: `native` (the PSP, when its connector can) or `orchestrator` (this service). Default: `native` when offered."
  ),
  trial_days: optionalField(Schema.Int.pipe(Schema.between(0, 730)), "Free days before the first charge: 0 to 730; default the plan's `trial_days`."),
  /** Where the customer comes back after 3D Secure on the first charge; without it, our page saying the window can be closed. */
  return_url: optionalField(
    Url,
    "Where the customer comes back after 3D Secure on the first charge; without it, a page of this service saying the window can be closed."
  ),
  metadata: optionalField(Metadata, "Your own key-value pairs.")
})
export type CreateSubscription = typeof CreateSubscription.Type

/** Body of `POST /v1/subscriptions/{id}`; `payment_method` replaces the stored token for later charges. */
export const UpdateSubscription = RequestBody("UpdateSubscription", {
  plan: optionalField(Identifier, "A new plan (`plan_…`), same currency: it applies from the next period (`pending_update` meanwhile)."),
  cancel_at_period_end: optionalField(Schema.Boolean, "`true` to end at the end of the current period, `false` to renew again."),
  payment_method: optionalField(SubscriptionPaymentMethod, "A new card token for the next charges."),
  metadata: optionalField(Metadata, "Your own key-value pairs; they replace the old ones.")
})
export type UpdateSubscription = typeof UpdateSubscription.Type

export const CancelSubscription = RequestBody("CancelSubscription", {
  at_period_end: optionalField(Schema.Boolean, "`true` to end at the end of the current period; default `false`: at once.")
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
