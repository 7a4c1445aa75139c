import * as StateMachine from "../StateMachine.js"
import type { CheckoutSessionStatus } from "./CheckoutSession.js"

export const CheckoutSessionEventTypes = [
  "checkout.session.created",
  "checkout.session.processing",
  "checkout.session.completed",
  "checkout.session.payment_failed",
  "checkout.session.rerouted",
  "checkout.session.cancelled",
  "checkout.session.expired"
] as const
export type CheckoutSessionEventType = (typeof CheckoutSessionEventTypes)[number]

/**
 * Decisions §12: a session is paid once; a rejection leaves it `payment_failed` until the customer
 * reroutes it (back to `open` on another provider), cancels it, or it expires.
 */
export const CheckoutSessionStateMachine = StateMachine.make<CheckoutSessionStatus, CheckoutSessionEventType>({
  name: "checkout.session",
  states: ["open", "processing", "complete", "payment_failed", "cancelled", "expired"],
  moves: [
    { from: null, to: "open", event: "checkout.session.created" },
    { from: "open", to: "processing", event: "checkout.session.processing" },
    { from: "processing", to: "complete", event: "checkout.session.completed" },
    { from: "processing", to: "payment_failed", event: "checkout.session.payment_failed" },
    { from: "payment_failed", to: "open", event: "checkout.session.rerouted" },
    { from: "open", to: "cancelled", event: "checkout.session.cancelled" },
    { from: "payment_failed", to: "cancelled", event: "checkout.session.cancelled" },
    { from: "open", to: "expired", event: "checkout.session.expired" },
    { from: "payment_failed", to: "expired", event: "checkout.session.expired" }
  ]
})
