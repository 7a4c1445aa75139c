import { SubscriptionStatus } from "@orchestrator/core"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { filterForm, filtersOf, idLink, paging } from "../Listing.js"
import { href, type Location } from "../Router.js"
import { badge, table } from "../Table.js"
import { clockTime } from "../TestClockMark.js"

const FILTERS = [
  { name: "status", label: "Status", choices: SubscriptionStatus.literals },
  { name: "customer", label: "Customer" },
  { name: "plan", label: "Plan" }
] as const

/** Subscriptions, newest first, with the API's filters (status, customer, plan) and cursor paging. */
export const subscriptionsPage = async ({ api, mode }: PageContext, location: Location) => {
  const values = filtersOf(location, FILTERS)
  const after = location.query.get("starting_after") ?? undefined
  const urlParams = {
    ...(values.status === undefined ? {} : { status: values.status as SubscriptionStatus }),
    ...(values.customer === undefined ? {} : { customer: values.customer }),
    ...(values.plan === undefined ? {} : { plan: values.plan }),
    ...(after === undefined ? {} : { starting_after: after }),
    limit: 20
  }
  const list = await api((client) => client.subscriptions.list({ urlParams }))
  const subscriptions = sameMode(mode, list.data)
  const rows = subscriptions.map((subscription) => [
    idLink("subscriptions", subscription.id),
    badge(subscription.status),
    // A customer or a plan links to the subscriptions it has: the list filtered by it.
    h("a", { href: href("subscriptions", { customer: subscription.customer_id }), class: "mono" }, subscription.customer_id),
    h("a", { href: href("subscriptions", { plan: subscription.plan_id }), class: "mono" }, subscription.plan_id),
    subscription.latest_invoice === null
      ? "—"
      : money(subscription.latest_invoice.amount_due, subscription.latest_invoice.currency),
    `${when(subscription.current_period_start)} → ${when(subscription.current_period_end)}`,
    subscription.provider,
    clockTime(when(subscription.created_at), subscription.test_clock)
  ])
  return h(
    "section",
    { "aria-labelledby": "subscriptions-title" },
    h("h1", { id: "subscriptions-title" }, "Subscriptions"),
    filterForm("subscriptions", "Filter subscriptions", FILTERS, values),
    table(
      "Subscriptions, newest first",
      ["Subscription", "Status", "Customer", "Plan", "Latest invoice", "Current period", "Provider", "Created"],
      rows,
      "No subscription matches these filters.",
      { id: "subscriptions-table" }
    ),
    paging("subscriptions", values, after, list.next_cursor)
  )
}
