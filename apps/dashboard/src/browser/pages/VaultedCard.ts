import type { PaymentMethodResource, VaultedCardFacts } from "@orchestrator/core"
import { h } from "../Dom.js"
import { href } from "../Router.js"

/** `visa •••• 4242`: what a person recognizes a card by, and never more of its number than the last four digits. */
export const maskedNumber = (card: Pick<VaultedCardFacts, "brand" | "last4">) => `${card.brand} •••• ${card.last4}`

/** `12/2029`. */
export const expiry = (card: Pick<VaultedCardFacts, "exp_month" | "exp_year">) => `${String(card.exp_month).padStart(2, "0")}/${card.exp_year}`

/** A vaulted card as one line linking to its page: the masked number, its expiry and its id. */
export const vaultedCardLink = (paymentMethod: PaymentMethodResource) =>
  h(
    "a",
    { href: href(`payment_methods/${paymentMethod.id}`), id: "payment-method-link" },
    `${maskedNumber(paymentMethod.card)}, expires ${expiry(paymentMethod.card)} `,
    h("span", { class: "mono" }, paymentMethod.id)
  )
