import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field } from "../Field.js"
import { Amount } from "../Money.js"
import { Payment } from "../payments/Payment.js"
import { Timestamp } from "../Timestamp.js"

export const InvoiceStatus = Schema.Literal("open", "paid", "void", "uncollectible")
export type InvoiceStatus = typeof InvoiceStatus.Type

/** Why an invoice was made: the first period, or a renewal. */
export const BillingReason = Schema.Literal("subscription_create", "subscription_cycle")

/** What an invoice is, stored or shown. */
const invoiceFields = {
  id: field(Schema.String, "The invoice's id (`in_…`)."),
  subscription_id: field(Schema.String, "The subscription billed (`sub_…`)."),
  customer_id: field(Schema.String, "The customer billed (`cus_…`)."),
  plan_id: field(Schema.String, "The plan billed (`plan_…`)."),
  status: field(
    InvoiceStatus,
    "`open` until paid, `paid`, `uncollectible` (every retry failed; a late payment still pays it) or `void` (a first charge that never completed)."
  ),
  billing_reason: field(BillingReason, "`subscription_create` for the first period, `subscription_cycle` for a renewal."),
  amount_due: field(Amount, "What the period costs, in minor units of `currency`."),
  amount_paid: field(Schema.NonNegativeInt, "What was paid so far, in minor units."),
  currency: field(Currency, "ISO 4217 code in upper case."),
  period_start: field(Timestamp, "Start of the period billed (ISO 8601 UTC)."),
  period_end: field(Timestamp, "End of the period billed (ISO 8601 UTC)."),
  attempt_count: field(Schema.NonNegativeInt, "How many charges were tried."),
  next_payment_attempt: field(Schema.NullOr(Timestamp), "When the next retry is due, or `null` when none is scheduled."),
  /** The test clock of the invoice's subscription, whose time its dates are on (null for invoices stored before it was kept). */
  test_clock: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description: "The test clock whose time the invoice's dates are on (test mode), or `null`."
  })
}

/** When it was made and changed, and in which mode. */
const bookkeeping = {
  created_at: field(Timestamp, "When it was created (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When it last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
}

/** As stored: `payment_id` names the latest payment made for it (one per attempt). */
export class InvoiceRecord extends Schema.Class<InvoiceRecord>("InvoiceRecord")({
  ...invoiceFields,
  payment_id: Schema.NullOr(Schema.String),
  ...bookkeeping
}) {}

/** A new invoice as billing writes it: open, nothing paid, no attempt yet, changed when made. */
export const openInvoice = (
  fields: Pick<
    InvoiceRecord,
    | "id"
    | "subscription_id"
    | "customer_id"
    | "plan_id"
    | "billing_reason"
    | "amount_due"
    | "currency"
    | "period_start"
    | "period_end"
    | "test_clock"
    | "created_at"
    | "livemode"
  >
): InvoiceRecord =>
  new InvoiceRecord({
    id: fields.id,
    subscription_id: fields.subscription_id,
    customer_id: fields.customer_id,
    plan_id: fields.plan_id,
    status: "open",
    billing_reason: fields.billing_reason,
    amount_due: fields.amount_due,
    amount_paid: 0,
    currency: fields.currency,
    period_start: fields.period_start,
    period_end: fields.period_end,
    attempt_count: 0,
    next_payment_attempt: null,
    payment_id: null,
    test_clock: fields.test_clock,
    created_at: fields.created_at,
    updated_at: fields.created_at,
    livemode: fields.livemode
  })

/** The invoice as the API shows it, with its latest payment (a Payment, refundable like any other). */
export class Invoice extends Schema.Class<Invoice>("Invoice")({
  object: field(Schema.Literal("invoice"), "Always `invoice`."),
  ...invoiceFields,
  payment: field(Schema.NullOr(Payment), "The latest payment made for the invoice (one per attempt), or `null` before any."),
  ...bookkeeping
}) {}

export const invoiceView = (record: InvoiceRecord, payment: Payment | null): Invoice => {
  const { payment_id: _, ...fields } = record
  return new Invoice({ ...fields, object: "invoice", payment })
}
