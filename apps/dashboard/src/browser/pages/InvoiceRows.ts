import type { Invoice } from "@orchestrator/core"
import { money, when } from "../Format.js"
import { idLink } from "../Listing.js"
import { badge } from "../Table.js"
import { clockTime } from "../TestClockMark.js"
import { paymentCell } from "./PaymentCell.js"

const period = (start: Invoice["period_start"], end: Invoice["period_end"]) => `${when(start)} → ${when(end)}`

/** The rows of an invoices table: each invoice links to its page, its latest payment to the payment's. */
export const invoiceRows = (invoices: ReadonlyArray<Invoice>) =>
  invoices.map((invoice) => [
    idLink("invoices", invoice.id),
    badge(invoice.status),
    invoice.billing_reason === "subscription_create" ? "first period" : "renewal",
    money(invoice.amount_due, invoice.currency),
    money(invoice.amount_paid, invoice.currency),
    clockTime(period(invoice.period_start, invoice.period_end), invoice.test_clock),
    String(invoice.attempt_count),
    paymentCell(invoice.payment)
  ])

export const INVOICE_HEADERS = ["Invoice", "Status", "Reason", "Due", "Paid", "Period", "Attempts", "Payment"]
