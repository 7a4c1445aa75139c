import { type PageContext, sameMode } from "../Context.js"
import { filteredList, filtersOf } from "../Listing.js"
import type { Location } from "../Router.js"
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
  return filteredList({
    section: "invoices",
    title: "Invoices",
    filters: FILTERS,
    values,
    headers: INVOICE_HEADERS,
    rows: invoiceRows(invoices),
    empty: "No invoice matches these filters.",
    after,
    nextCursor: list.next_cursor
  })
}
