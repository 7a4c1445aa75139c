import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { filterForm, filtersOf, paging } from "../Listing.js"
import type { Location } from "../Router.js"
import { table } from "../Table.js"
import { INVOICE_HEADERS, invoiceRows } from "./InvoiceRows.js"

const FILTERS = [{ name: "subscription", label: "Subscription" }] as const

/** Invoices, newest first, optionally of one subscription, with cursor paging. */
export const invoicesPage = async ({ api, mode }: PageContext, location: Location) => {
  const values = filtersOf(location, FILTERS)
  const after = location.query.get("starting_after") ?? undefined
  const urlParams = {
    ...(values.subscription === undefined ? {} : { subscription: values.subscription }),
    ...(after === undefined ? {} : { starting_after: after }),
    limit: 20
  }
  const list = await api((client) => client.invoices.list({ urlParams }))
  const invoices = sameMode(mode, list.data)
  return h(
    "section",
    { "aria-labelledby": "invoices-title" },
    h("h1", { id: "invoices-title" }, "Invoices"),
    filterForm("invoices", "Filter invoices", FILTERS, values),
    table("Invoices, newest first", INVOICE_HEADERS, invoiceRows(invoices), "No invoice matches these filters.", { id: "invoices-table" }),
    paging("invoices", values, after, list.next_cursor)
  )
}
