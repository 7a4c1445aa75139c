import type { Payment } from "@orchestrator/core"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { idLink } from "../Listing.js"
import { badge, table } from "../Table.js"

/** The payments made for one checkout session or invoice, in the order given: a heading and their table. */
export const paymentsSection = (payments: ReadonlyArray<Payment>, options: { readonly caption: string; readonly empty: string; readonly id: string }) => [
  h("h2", {}, "Payments"),
  table(
    options.caption,
    ["Payment", "Status", "Amount", "Provider", "Failure", "Created"],
    payments.map((payment) => [
      idLink("payments", payment.id),
      badge(payment.status),
      money(payment.amount, payment.currency),
      payment.provider,
      payment.failure === null ? "" : `${payment.failure.message} (${payment.failure.code})`,
      when(payment.created_at)
    ]),
    options.empty,
    { id: options.id }
  )
]
