import type { Payment } from "@orchestrator/core"
import { type Child, h } from "./Dom.js"
import { paymentMarkers } from "./PaymentMarkers.js"

/** A table with a caption for screen readers; `empty` says what an empty table means. */
export const table = (
  caption: string,
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Child>>,
  empty: string,
  attributes: Record<string, string> = {}
) =>
  rows.length === 0
    ? h("p", { class: "empty", ...attributes }, empty)
    : h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        attributes,
        h("caption", { class: "visually-hidden" }, caption),
        h("thead", {}, h("tr", {}, headers.map((header) => h("th", { scope: "col" }, header)))),
        h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell, index) => h("td", { "data-label": headers[index] ?? "" }, cell)))))
      )
    )

/** A status as a coloured word (the colour repeats the word; it never replaces it). */
export const badge = (status: string) => h("span", { class: `badge status-${status}` }, status.replaceAll("_", " "))

/** A payment's status badge followed by its markers (refunded, partially captured…), see PaymentMarkers. */
export const paymentBadges = (payment: Pick<Payment, "status" | "amount" | "amount_captured" | "amount_refunded">) =>
  h("span", { class: "badges" }, badge(payment.status), ...paymentMarkers(payment).flatMap((marker) => [" ", badge(marker)]))
