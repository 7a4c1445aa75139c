import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { field, idLink } from "../Listing.js"
import { href } from "../Router.js"
import { badge, table } from "../Table.js"
import { INVOICE_HEADERS, invoiceRows } from "./InvoiceRows.js"
import { paymentCell } from "./PaymentCell.js"

/** One subscription: its state and period, a plan change waiting for the next period, and its invoices. */
export const subscriptionPage = async (context: PageContext, id: string) => {
  const [subscription, invoices] = await Promise.all([
    context.api((client) => client.subscriptions.retrieve({ path: { id } })),
    context.api((client) => client.invoices.list({ urlParams: { subscription: id, limit: 100 } }))
  ])
  sameMode(context.mode, [subscription, ...invoices.data])
  const latest = subscription.latest_invoice
  const pending = subscription.pending_update
  return h(
    "article",
    { "aria-labelledby": "subscription-title" },
    h("p", {}, h("a", { href: href("subscriptions") }, "← Subscriptions")),
    h("h1", { id: "subscription-title" }, "Subscription ", h("span", { id: "subscription-status" }, badge(subscription.status))),
    pending === null
      ? null
      : h(
        "div",
        { class: "notice", id: "pending-update", role: "note" },
        `Plan changes to ${pending.plan_id} on ${when(pending.effective_at)}.`
      ),
    h(
      "dl",
      { class: "facts" },
      field("Subscription", h("span", { class: "mono", id: "subscription-id" }, subscription.id)),
      field("Customer", h("a", { href: href("subscriptions", { customer: subscription.customer_id }), class: "mono" }, subscription.customer_id)),
      field("Plan", h("a", { href: href("subscriptions", { plan: subscription.plan_id }), class: "mono", id: "subscription-plan" }, subscription.plan_id)),
      field(
        "Current period",
        h("span", { id: "subscription-period" }, `${when(subscription.current_period_start)} → ${when(subscription.current_period_end)}`)
      ),
      field("Pending update", pending === null ? "none" : `${pending.plan_id} from ${when(pending.effective_at)}`),
      field("Trial ends", when(subscription.trial_end)),
      field(
        "Cancellation",
        subscription.canceled_at !== null
          ? `canceled ${when(subscription.canceled_at)}`
          : subscription.cancel_at_period_end
          ? `at the end of the period (${when(subscription.current_period_end)})`
          : "none"
      ),
      field("Provider", `${subscription.provider} (${subscription.engine === "native" ? "billed by the PSP" : "billed by the orchestrator"})`),
      field("Test clock", subscription.test_clock ?? "—"),
      field("Created", when(subscription.created_at))
    ),
    h("h2", {}, "Latest invoice"),
    latest === null
      ? h("p", { class: "empty", id: "latest-invoice" }, "No invoice yet.")
      : h(
        "dl",
        { class: "facts", id: "latest-invoice" },
        field("Invoice", idLink("invoices", latest.id)),
        field("Status", badge(latest.status)),
        field("Due", money(latest.amount_due, latest.currency)),
        field("Paid", money(latest.amount_paid, latest.currency)),
        field("Next attempt", when(latest.next_payment_attempt)),
        field("Payment", paymentCell(latest.payment))
      ),
    h("h2", {}, "Invoices"),
    table("Invoices of this subscription, newest first", INVOICE_HEADERS, invoiceRows(invoices.data), "No invoice yet.", {
      id: "invoices-table"
    }),
    invoices.has_more
      ? h("p", {}, h("a", { href: href("invoices", { subscription: subscription.id }) }, "All invoices of this subscription"))
      : null
  )
}
