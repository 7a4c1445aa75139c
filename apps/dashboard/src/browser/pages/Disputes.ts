import { DisputeStatus } from "@orchestrator/core"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { filterForm, filtersOf } from "../Listing.js"
import type { Location } from "../Router.js"
import { table } from "../Table.js"
import { byUrgency, DISPUTE_HEADERS, disputeRows } from "./DisputeRows.js"

const FILTERS = [
  { name: "status", label: "Status", choices: DisputeStatus.literals },
  { name: "payment_id", label: "Payment" },
  { name: "provider", label: "Connection" }
] as const

const LIMIT = 100

/**
 * The organization's disputes, those waiting for an answer first, nearest deadline first. The API
 * lists newest first, so those waiting are asked for on their own: an old closed dispute never
 * pushes one that needs an answer off the page.
 */
export const disputesPage = async ({ api, mode }: PageContext, location: Location) => {
  const values = filtersOf(location, FILTERS)
  const narrowed = {
    ...(values.payment_id === undefined ? {} : { payment_id: values.payment_id }),
    ...(values.provider === undefined ? {} : { provider: values.provider }),
    limit: LIMIT
  }
  const status = values.status as DisputeStatus | undefined
  const [waiting, others] = await Promise.all([
    status === undefined || status === "needs_response"
      ? api((client) => client.disputes.list({ urlParams: { ...narrowed, status: "needs_response" } }))
      : Promise.resolve({ data: [] }),
    status === "needs_response"
      ? Promise.resolve({ data: [] })
      : api((client) => client.disputes.list({ urlParams: { ...narrowed, ...(status === undefined ? {} : { status }) } }))
  ])
  const seen = new Set(waiting.data.map((dispute) => dispute.id))
  const disputes = sameMode(mode, [...waiting.data, ...others.data.filter((dispute) => !seen.has(dispute.id))])
  return h(
    "section",
    { "aria-labelledby": "disputes-title" },
    h("h1", { id: "disputes-title" }, "Disputes"),
    filterForm("disputes", "Filter disputes", FILTERS, values),
    table(
      "Disputes, those needing a response first, nearest deadline first",
      DISPUTE_HEADERS,
      disputeRows(byUrgency(disputes)),
      "No dispute matches these filters.",
      { id: "disputes-table" }
    )
  )
}
