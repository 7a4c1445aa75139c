import * as StateMachine from "../domain/StateMachine.js"
import type { PaymentStatus } from "./Payment.js"

export type PaymentEventType =
  | "payment.created"
  | "payment.processing"
  | "payment.requires_action"
  | "payment.requires_capture"
  | "payment.succeeded"
  | "payment.failed"
  | "payment.canceled"

const eventOf = (status: PaymentStatus): PaymentEventType => `payment.${status}`

/**
 * Decisions §4, the only moves a payment can make; each emits the event of its new status.
 * `processing` is entered before every PSP call, so an answer we never saw leaves the payment
 * there for reconciliation instead of guessing.
 */
const table: ReadonlyArray<readonly [PaymentStatus | null, PaymentStatus]> = [
  [null, "created"],
  ["created", "processing"],
  ["created", "canceled"],
  ["processing", "succeeded"],
  ["processing", "failed"],
  ["processing", "requires_action"],
  ["processing", "requires_capture"],
  ["requires_action", "processing"],
  ["requires_action", "canceled"],
  ["requires_capture", "succeeded"],
  ["requires_capture", "canceled"]
]

export const PaymentStateMachine = StateMachine.make<PaymentStatus, PaymentEventType>({
  name: "payment",
  states: ["created", "processing", "requires_action", "requires_capture", "succeeded", "failed", "canceled"],
  moves: table.map(([from, to]) => ({ from, to, event: eventOf(to) }))
})
