import { Schema } from "effect"
import { Currency } from "../domain/Currency.js"
import { Amount } from "../domain/Money.js"
import { Timestamp } from "../domain/Timestamp.js"
import { Payment } from "../payments/Payment.js"

export const InvoiceStatus = Schema.Literal("open", "paid", "void", "uncollectible")
export type InvoiceStatus = typeof InvoiceStatus.Type

/** Why an invoice was made: the first period, or a renewal. */
export const BillingReason = Schema.Literal("subscription_create", "subscription_cycle")

/** What an invoice is, stored or shown. */
const invoiceFields = {
  id: Schema.String,
  subscription_id: Schema.String,
  customer_id: Schema.String,
  plan_id: Schema.String,
  status: InvoiceStatus,
  billing_reason: BillingReason,
  amount_due: Amount,
  amount_paid: Schema.NonNegativeInt,
  currency: Currency,
  period_start: Timestamp,
  period_end: Timestamp,
  attempt_count: Schema.NonNegativeInt,
  next_payment_attempt: Schema.NullOr(Timestamp),
  /** The test clock of the invoice's subscription, whose time its dates are on (null for invoices stored before it was kept). */
  test_clock: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
}

/** When it was made and changed, and in which mode. */
const bookkeeping = { created_at: Timestamp, updated_at: Timestamp, livemode: Schema.Boolean }

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
  object: Schema.Literal("invoice"),
  ...invoiceFields,
  payment: Schema.NullOr(Payment),
  ...bookkeeping
}) {}

export const invoiceView = (record: InvoiceRecord, payment: Payment | null): Invoice => {
  const { payment_id: _, ...fields } = record
  return new Invoice({ ...fields, object: "invoice", payment })
}
