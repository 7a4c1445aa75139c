import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { field, idLink } from "../Listing.js"
import { href } from "../Router.js"
import { badge } from "../Table.js"
import { paymentSummary } from "./PaymentCell.js"
import { paymentsSection } from "./PaymentsSection.js"

/** One invoice: what it bills, whether it is paid, and the payment of each attempt to collect it. */
export const invoicePage = async (context: PageContext, id: string) => {
  const invoice = await context.api((client) => client.invoices.retrieve({ path: { id } }))
  sameMode(context.mode, [invoice])
  // The invoice names only its latest payment; every attempt's payment carries the invoice in its
  // metadata, so the customer's recent payments tell the earlier ones.
  const payments = await context.api((client) => client.payments.list({ urlParams: { customer_id: invoice.customer_id, limit: 100 } }))
  const attempts = sameMode(context.mode, payments.data).filter((payment) => payment.metadata.invoice === invoice.id)
  return h(
    "article",
    { "aria-labelledby": "invoice-title" },
    h("p", {}, h("a", { href: href("invoices", { subscription: invoice.subscription_id }) }, "← Invoices of this subscription")),
    h("h1", { id: "invoice-title" }, money(invoice.amount_due, invoice.currency), " ", h("span", { id: "invoice-status" }, badge(invoice.status))),
    h(
      "dl",
      { class: "facts" },
      field("Invoice", h("span", { class: "mono", id: "invoice-id" }, invoice.id)),
      field("Subscription", idLink("subscriptions", invoice.subscription_id)),
      field("Customer", invoice.customer_id),
      field("Plan", invoice.plan_id),
      field("Reason", invoice.billing_reason === "subscription_create" ? "first period" : "renewal"),
      field("Period", `${when(invoice.period_start)} → ${when(invoice.period_end)}`),
      field("Due", money(invoice.amount_due, invoice.currency)),
      field("Paid", money(invoice.amount_paid, invoice.currency)),
      field("Attempts", String(invoice.attempt_count)),
      field("Next attempt", when(invoice.next_payment_attempt)),
      field("Payment", invoice.payment === null ? "none yet" : h("span", { id: "invoice-payment" }, paymentSummary(invoice.payment))),
      field("Created", when(invoice.created_at))
    ),
    ...paymentsSection(attempts, {
      caption: "Payments made for this invoice, newest first",
      empty: "No payment for this invoice.",
      id: "invoice-payments-table"
    })
  )
}
