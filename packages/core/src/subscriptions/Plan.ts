import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { Metadata } from "../domain/Metadata.js"
import { Amount } from "../domain/Money.js"
import { Timestamp } from "../domain/Timestamp.js"

export const BillingInterval = Schema.Literal("day", "week", "month", "year")

/** Up to three years per period whatever the interval, as Stripe caps it. */
const MAX_COUNT = { day: 1095, week: 156, month: 36, year: 3 } as const

export class Plan extends Schema.Class<Plan>("Plan")({
  object: Schema.Literal("plan"),
  id: Schema.String,
  amount: Amount,
  currency: Currency,
  interval: BillingInterval,
  interval_count: Schema.Int,
  trial_days: Schema.NullOr(Schema.Int),
  metadata: Metadata,
  created_at: Timestamp,
  livemode: Schema.Boolean
}) {}

/** Body of `POST /v1/plans`; `interval_count` defaults to 1. */
export const CreatePlan = Schema.Struct({
  amount: Amount,
  currency: Currency,
  interval: BillingInterval,
  interval_count: Schema.optional(Schema.Int.pipe(Schema.between(1, 1095))),
  trial_days: Schema.optional(Schema.Int.pipe(Schema.between(0, 730))),
  metadata: Schema.optional(Metadata)
}).pipe(
  Schema.filter((plan) =>
    (plan.interval_count ?? 1) <= MAX_COUNT[plan.interval] ||
    { path: ["interval_count"], message: `a period is at most ${MAX_COUNT[plan.interval]} ${plan.interval}s` }
  )
).annotations({ identifier: "CreatePlan", parseOptions: { onExcessProperty: "error" } })
export type CreatePlan = typeof CreatePlan.Type
