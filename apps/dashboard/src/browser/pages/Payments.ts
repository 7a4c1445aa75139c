import { PaymentStatus } from "@orchestrator/core"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money } from "../Format.js"
import { href, type Location, navigate } from "../Router.js"
import { paymentBadges, table } from "../Table.js"
import { madeAt } from "../TestClockMark.js"

const FILTERS = ["status", "provider", "currency", "customer_id"] as const

/** Payments, newest made first (test-clock ones marked), with the API's filters and cursor paging; the filters live in the URL. */
export const paymentsPage = async ({ api, mode }: PageContext, location: Location) => {
  const query = Object.fromEntries(FILTERS.map((name) => [name, location.query.get(name) ?? undefined]))
  const after = location.query.get("starting_after") ?? undefined
  const urlParams = {
    ...(query.status === undefined ? {} : { status: query.status as PaymentStatus }),
    ...(query.provider === undefined ? {} : { provider: query.provider }),
    ...(query.currency === undefined ? {} : { currency: query.currency.toUpperCase() }),
    ...(query.customer_id === undefined ? {} : { customer_id: query.customer_id }),
    ...(after === undefined ? {} : { starting_after: after }),
    // In the order they were made: a test clock's payments carry its time, years ahead, and would top the list.
    order_by: "id" as const,
    limit: 20
  }
  const list = await api((client) => client.payments.list({ urlParams }))
  const payments = sameMode(mode, list.data)

  const status = h(
    "select",
    { id: "filter-status", name: "status" },
    h("option", { value: "" }, "any"),
    PaymentStatus.literals.map((value) => h("option", { value, selected: value === query.status }, value.replaceAll("_", " ")))
  )
  const text = (name: string, label: string) => h("label", {}, label, h("input", { id: `filter-${name}`, name, value: query[name] ?? "", autocomplete: "off" }))
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter payments" },
    h("label", {}, "Status", status),
    text("provider", "Provider"),
    text("currency", "Currency"),
    text("customer_id", "Customer"),
    h("button", { type: "submit" }, "Filter"),
    h("a", { href: href("payments"), class: "button secondary" }, "Clear")
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const data = new FormData(form as HTMLFormElement)
    navigate(href("payments", Object.fromEntries(FILTERS.map((name) => [name, String(data.get(name) ?? "").trim()]))))
  })

  const rows = payments.map((payment) => [
    h("a", { href: href(`payments/${payment.id}`), class: "mono" }, payment.id),
    paymentBadges(payment),
    money(payment.amount, payment.currency),
    payment.provider,
    payment.failure === null ? "" : payment.failure.message,
    madeAt(payment)
  ])
  const paging = h(
    "nav",
    { class: "paging", "aria-label": "Pages" },
    after === undefined ? null : h("a", { href: href("payments", query), class: "button secondary" }, "First page"),
    list.next_cursor === null
      ? null
      : h("a", { href: href("payments", { ...query, starting_after: list.next_cursor }), class: "button", id: "next-page" }, "Next page")
  )
  return h(
    "section",
    { "aria-labelledby": "payments-title" },
    h("h1", { id: "payments-title" }, "Payments"),
    form,
    table("Payments, newest first", ["Payment", "Status", "Amount", "Provider", "Failure", "Made"], rows, "No payment matches these filters.", {
      id: "payments-table"
    }),
    paging
  )
}
