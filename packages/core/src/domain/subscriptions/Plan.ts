import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field, optionalField } from "../Field.js"
import { Metadata } from "../Metadata.js"
import { Amount } from "../Money.js"
import { Timestamp } from "../Timestamp.js"

export const BillingInterval = Schema.Literal("day", "week", "month", "year")

/** Up to three years per period whatever the interval, as Stripe caps it. */
const MAX_COUNT = { day: 1095, week: 156, month: 36, year: 3 } as const

export class Plan extends Schema.Class<Plan>("Plan")({
  object: field(Schema.Literal("plan"), "Always `plan`."),
  id: field(Schema.String, "The plan's id (`plan_…`)."),
  amount: field(Amount, "What each period costs, in minor units of `currency`."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  interval: field(BillingInterval, "The unit of a period: `day`, `week`, `month` or `year`."),
  interval_count: field(Schema.Int, "How many intervals make a period (3 months: `interval: month`, `interval_count: 3`)."),
  trial_days: field(Schema.NullOr(Schema.Int), "Free days before the first charge of a new subscription, or `null`."),
  metadata: field(Metadata, "Your own key-value pairs, as sent."),
  created_at: field(Timestamp, "When the plan was created (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live data, `false` for test mode.")
}) {}

/** Body of `POST /v1/plans`; `interval_count` defaults to 1. */
export const CreatePlan = Schema.Struct({
  amount: field(Amount, "What each period costs, in minor units of `currency`."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  interval: field(BillingInterval, "The unit of a period: `day`, `week`, `month` or `year`."),
  interval_count: optionalField(Schema.Int.pipe(Schema.between(1, 1095)), "How many intervals make a period: default 1; a period is at most three years."),
  trial_days: optionalField(Schema.Int.pipe(Schema.between(0, 730)), "Free days before the first charge: 0 to 730."),
  metadata: optionalField(Metadata, "Your own key-value pairs.")
}).pipe(
  Schema.filter((plan) =>
    (plan.interval_count ?? 1) <= MAX_COUNT[plan.interval] ||
    { path: ["interval_count"], message: `a period is at most ${MAX_COUNT[plan.interval]} ${plan.interval}s` }
  )
).annotations({ identifier: "CreatePlan", parseOptions: { onExcessProperty: "error" } })
export type CreatePlan = typeof CreatePlan.Type
