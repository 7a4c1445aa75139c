import type { Payment } from "@orchestrator/core"
import { h } from "../Dom.js"
import { money } from "../Format.js"
import { idLink } from "../Listing.js"
import { badge, paymentBadges } from "../Table.js"

/** An invoice's or a session's payment in a table cell: a link to its page, its status and why it failed. */
export const paymentCell = (payment: Pick<Payment, "id" | "status" | "failure"> | null) =>
  payment === null
    ? "—"
    : h(
      "span",
      { class: "row-actions" },
      idLink("payments", payment.id),
      badge(payment.status),
      payment.failure === null ? null : h("span", { class: "muted" }, payment.failure.code)
    )

/** The same payment as one line of facts, with its amount. */
export const paymentSummary = (payment: Payment) =>
  h(
    "span",
    { class: "row-actions" },
    idLink("payments", payment.id),
    paymentBadges(payment),
    h("span", {}, money(payment.amount, payment.currency)),
    h("span", {}, payment.provider)
  )
