import * as StateMachine from "../StateMachine.js"
import { PaymentStatus } from "./Payment.js"

/** Every status has its event, `payment.<status>`, emitted when a payment enters it. */
export const PaymentEventTypes = [
  "payment.created",
  "payment.processing",
  "payment.requires_action",
  "payment.requires_capture",
  "payment.succeeded",
  "payment.failed",
  "payment.canceled"
] as const satisfies ReadonlyArray<`payment.${PaymentStatus}`>
export type PaymentEventType = (typeof PaymentEventTypes)[number]

const eventOf = (status: PaymentStatus): PaymentEventType => `payment.${status}`

/**
 * The only moves a payment can make; each emits the event of its new status.
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
  states: PaymentStatus.literals,
  moves: table.map(([from, to]) => ({ from, to, event: eventOf(to) }))
})
