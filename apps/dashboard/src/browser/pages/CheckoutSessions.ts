import { type CheckoutSession, CheckoutSessionStatus } from "@orchestrator/core"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { filterForm, filtersOf, idLink, paging } from "../Listing.js"
import type { Location } from "../Router.js"
import { badge, table } from "../Table.js"

/** A session as the dashboard keeps it: without its client secret, which belongs to the customer's browser only. */
export type ShownSession = Omit<CheckoutSession, "client_secret">

/** Drops the client secret the moment the API's answer arrives, so no page can ever show it. */
export const withoutClientSecret = ({ client_secret: _secret, ...shown }: CheckoutSession): ShownSession => shown

const FILTERS = [{ name: "status", label: "Status", choices: CheckoutSessionStatus.literals }] as const

/** Checkout sessions, newest first, by status, with cursor paging. */
export const checkoutSessionsPage = async ({ api, mode }: PageContext, location: Location) => {
  const values = filtersOf(location, FILTERS)
  const after = location.query.get("starting_after") ?? undefined
  const urlParams = {
    ...(values.status === undefined ? {} : { status: values.status as CheckoutSessionStatus }),
    ...(after === undefined ? {} : { starting_after: after }),
    limit: 20
  }
  const list = await api((client) => client.checkoutSessions.list({ urlParams }))
  const sessions = sameMode(mode, list.data).map(withoutClientSecret)
  const rows = sessions.map((session) => [
    idLink("checkout", session.id),
    badge(session.status),
    money(session.amount, session.currency),
    session.ui.provider,
    session.customer_email ?? session.customer_id ?? "—",
    String(session.payment_ids.length),
    when(session.expires_at),
    when(session.created_at)
  ])
  return h(
    "section",
    { "aria-labelledby": "checkout-title" },
    h("h1", { id: "checkout-title" }, "Checkout sessions"),
    filterForm("checkout", "Filter checkout sessions", FILTERS, values),
    table(
      "Checkout sessions, newest first",
      ["Session", "Status", "Amount", "Provider", "Customer", "Payments", "Expires", "Created"],
      rows,
      "No checkout session matches these filters.",
      { id: "checkout-table" }
    ),
    paging("checkout", values, after, list.next_cursor)
  )
}
