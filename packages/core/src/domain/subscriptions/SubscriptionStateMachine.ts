import * as StateMachine from "../StateMachine.js"
import type { SubscriptionStatus } from "./Subscription.js"

export const SubscriptionEventTypes = [
  "subscription.created",
  "subscription.updated",
  "subscription.canceled",
  "subscription.past_due",
  "subscription.unpaid"
] as const
export type SubscriptionEventType = (typeof SubscriptionEventTypes)[number]

const updated = "subscription.updated" as const

/**
 * Every move a subscription can make. A move to the same status is a change of period, plan,
 * cancellation flag or metadata (`subscription.updated`). `canceled` and `incomplete_expired` are final.
 */
export const SubscriptionStateMachine = StateMachine.make<SubscriptionStatus, SubscriptionEventType>({
  name: "subscription",
  states: ["incomplete", "incomplete_expired", "trialing", "active", "past_due", "unpaid", "canceled"],
  moves: [
    { from: null, to: "incomplete", event: "subscription.created" },
    { from: null, to: "trialing", event: "subscription.created" },
    { from: "incomplete", to: "incomplete", event: updated },
    { from: "incomplete", to: "active", event: updated },
    { from: "incomplete", to: "incomplete_expired", event: updated },
    { from: "incomplete", to: "canceled", event: "subscription.canceled" },
    { from: "trialing", to: "trialing", event: updated },
    { from: "trialing", to: "active", event: updated },
    { from: "trialing", to: "past_due", event: "subscription.past_due" },
    { from: "trialing", to: "canceled", event: "subscription.canceled" },
    { from: "active", to: "active", event: updated },
    { from: "active", to: "past_due", event: "subscription.past_due" },
    { from: "active", to: "canceled", event: "subscription.canceled" },
    { from: "past_due", to: "past_due", event: updated },
    { from: "past_due", to: "active", event: updated },
    { from: "past_due", to: "unpaid", event: "subscription.unpaid" },
    { from: "past_due", to: "canceled", event: "subscription.canceled" },
    { from: "unpaid", to: "unpaid", event: updated },
    { from: "unpaid", to: "active", event: updated },
    { from: "unpaid", to: "canceled", event: "subscription.canceled" }
  ]
})
