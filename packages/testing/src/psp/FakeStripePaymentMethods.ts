import type { PspAnswer } from "./FakePspServer.js"
import { stripeError } from "./StripeError.js"

/**
 * Stripe's documented test card numbers, as the test PaymentMethods they behave like: a card sent
 * raw to `POST /v1/payment_methods` charges as its `pm_card_…` would.
 */
const TEST_NUMBERS: Record<string, { readonly behaves: string; readonly brand: string }> = {
  "4242424242424242": { behaves: "pm_card_visa", brand: "visa" },
  "5555555555554444": { behaves: "pm_card_mastercard", brand: "mastercard" },
  "4000000000000002": { behaves: "pm_card_chargeDeclined", brand: "visa" },
  "4000000000009995": { behaves: "pm_card_chargeDeclinedInsufficientFunds", brand: "visa" }
}

/** The PaymentMethods made from raw cards, by id: the test PaymentMethod each behaves like. */
export type PaymentMethodsState = Map<string, string>

/** `POST /v1/payment_methods` with `type=card` and `card[number|exp_month|exp_year|cvc]` (raw card data). */
export const createPaymentMethod = (state: PaymentMethodsState, newId: (prefix: string) => string, form: Record<string, any>): PspAnswer => {
  const card = form.card ?? {}
  const known = TEST_NUMBERS[String(card.number ?? "")]
  if (form.type !== "card" || known === undefined) {
    return [402, stripeError("card_error", "Your card number is incorrect.", { code: "incorrect_number", param: "card[number]" })]
  }
  const id = newId("pm")
  state.set(id, known.behaves)
  return [200, {
    id,
    object: "payment_method",
    type: "card",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    billing_details: { name: form.billing_details?.name ?? null },
    card: {
      brand: known.brand,
      last4: String(card.number).slice(-4),
      exp_month: Number(card.exp_month),
      exp_year: Number(card.exp_year),
      country: "US",
      funding: "credit",
      checks: { cvc_check: card.cvc === undefined ? null : "unchecked" }
    }
  }]
}
