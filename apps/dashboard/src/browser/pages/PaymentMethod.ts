import type { PaymentMethodResource } from "@orchestrator/core"
import { confirmAction } from "../Confirm.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { when } from "../Format.js"
import { field, idLink, paging } from "../Listing.js"
import { href, type Location } from "../Router.js"
import { table } from "../Table.js"
import { expiry, maskedNumber } from "./VaultedCard.js"

const ACCESSES_PER_PAGE = 20

/**
 * The card as the API documents it, field by field: each one named here, none read by walking the
 * object, so nothing the answer might carry beyond them (and never a number) reaches the page.
 */
const facts = (paymentMethod: PaymentMethodResource) =>
  h(
    "dl",
    { class: "facts" },
    field("Payment method", h("span", { class: "mono", id: "payment-method-id" }, paymentMethod.id)),
    field("Card", h("span", { id: "payment-method-card" }, maskedNumber(paymentMethod.card))),
    field("Expires", h("span", { id: "payment-method-expiry" }, expiry(paymentMethod.card))),
    field("Country", paymentMethod.card.country ?? "—"),
    field("Funding", paymentMethod.card.funding),
    field("Fingerprint", h("span", { class: "mono" }, paymentMethod.card.fingerprint)),
    field("Created", when(paymentMethod.created_at))
  )

/** Delete, once confirmed: the page then says the card's data is destroyed, and shows nothing of it. */
const deletion = (context: PageContext, paymentMethod: PaymentMethodResource, view: () => HTMLElement) => {
  const outlet = h("div", { id: "action-result" })
  const button = h("button", { type: "button", id: "delete-payment-method", class: "danger" }, "Delete card…") as HTMLButtonElement
  button.addEventListener("click", () =>
    runAction(button, outlet, async () => {
      const card = maskedNumber(paymentMethod.card)
      const ok = await confirmAction(
        "Delete this card?",
        `The vault destroys the data of ${card}: ${paymentMethod.id} is refused by every payment from then on. This cannot be undone.`,
        "Delete card"
      )
      if (!ok) return undefined
      await context.api((client) => client.paymentMethods.delete({ path: { id: paymentMethod.id } }))
      view().replaceWith(deleted(paymentMethod.id))
      return undefined
    }))
  return h("section", { class: "actions-panel", "aria-label": "Actions" }, button, outlet)
}

const deleted = (id: string) =>
  h(
    "article",
    { "aria-labelledby": "payment-method-title" },
    h("p", {}, h("a", { href: href("payments") }, "← Payments")),
    h("h1", { id: "payment-method-title" }, "Card deleted"),
    h(
      "div",
      { class: "notice", role: "status", id: "payment-method-notice" },
      `The card's data is destroyed: ${id} can no longer pay. Its payments keep their history.`
    )
  )

/** One vaulted card: masked, its facts, delete, and its access log (every decryption, newest first, paged). */
export const paymentMethodPage = async (context: PageContext, id: string, location: Location) => {
  const after = location.query.get("starting_after") ?? undefined
  const [paymentMethod, accesses] = await Promise.all([
    context.api((client) => client.paymentMethods.retrieve({ path: { id } })),
    context.api((client) =>
      client.paymentMethods.accesses({
        path: { id },
        urlParams: { limit: ACCESSES_PER_PAGE, ...(after === undefined ? {} : { starting_after: after }) }
      })
    )
  ])
  sameMode(context.mode, [paymentMethod])
  const rows = accesses.data.map((access) => [
    access.purpose,
    access.payment_id === null ? "—" : idLink("payments", access.payment_id),
    access.connection ?? "—",
    when(access.created_at)
  ])
  const view: HTMLElement = h(
    "article",
    { "aria-labelledby": "payment-method-title" },
    h("p", {}, h("a", { href: href("payments") }, "← Payments")),
    h("h1", { id: "payment-method-title" }, maskedNumber(paymentMethod.card)),
    facts(paymentMethod),
    deletion(context, paymentMethod, () => view),
    h("h2", {}, "Accesses"),
    h("p", { class: "muted" }, "Every time the vault decrypted this card, and why."),
    table("Accesses to this card, newest first", ["Purpose", "Payment", "Connection", "Time"], rows, "Never decrypted.", {
      id: "payment-method-accesses-table"
    }),
    paging(`payment_methods/${paymentMethod.id}`, {}, after, accesses.next_cursor)
  )
  return view
}
