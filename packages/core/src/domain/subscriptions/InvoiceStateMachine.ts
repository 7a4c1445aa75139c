import * as StateMachine from "../StateMachine.js"
import type { InvoiceStatus } from "./Invoice.js"

export const InvoiceEventTypes = [
  "invoice.created",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.voided",
  "invoice.marked_uncollectible"
] as const
export type InvoiceEventType = (typeof InvoiceEventTypes)[number]

/**
 * An invoice is `open` until a payment pays it; each failed attempt stays `open` with
 * `invoice.payment_failed`. Retries exhausted make it `uncollectible` (a late payment still pays it);
 * an expired first invoice is `void`.
 */
export const InvoiceStateMachine = StateMachine.make<InvoiceStatus, InvoiceEventType>({
  name: "invoice",
  states: ["open", "paid", "void", "uncollectible"],
  moves: [
    { from: null, to: "open", event: "invoice.created" },
    { from: "open", to: "open", event: "invoice.payment_failed" },
    { from: "open", to: "paid", event: "invoice.paid" },
    { from: "open", to: "void", event: "invoice.voided" },
    { from: "open", to: "uncollectible", event: "invoice.marked_uncollectible" },
    { from: "uncollectible", to: "paid", event: "invoice.paid" }
  ]
})
