import type { AuthorizeRequest, RawCard } from "@orchestrator/core"
import { Either, Redacted } from "effect"
import { CAPTURE_KEY } from "./Outcomes.js"
import type { CheckoutComSettings } from "./Settings.js"

/**
 * What the merchant's token stands for, as Checkout.com's `source`: a token from Checkout.com's
 * Frames or Flow in the browser (`tok_…`, `type: "token"`, card data never seen here) or a card
 * Checkout.com stored from an earlier payment (`src_…`, `type: "id"`).
 */
export const sourceOf = (token: string | null): Either.Either<Record<string, string>, string> =>
  token === null
    ? Either.left("Checkout.com takes card payments here.")
    : /^tok_\w{26}$/.test(token)
    ? Either.right({ type: "token", token })
    : /^src_\w{26}$/.test(token)
    ? Either.right({ type: "id", id: token })
    : Either.left("The token is neither a Checkout.com card token (tok_…) nor a stored source (src_…).")

/**
 * A card from the service's vault as Checkout.com's card source (`type: "card"`), for a PCI-compliant
 * sender: built only for the request's body, never kept. `stored` marks a charge on stored card
 * details, as the document asks of them.
 */
export const cardSourceOf = (card: RawCard, stored = false): Record<string, unknown> => ({
  type: "card",
  number: Redacted.value(card.number),
  expiry_month: card.expMonth,
  expiry_year: card.expYear,
  ...(card.cvc === null ? {} : { cvv: Redacted.value(card.cvc) }),
  ...(card.holderName === null ? {} : { name: card.holderName }),
  ...(stored ? { stored: true } : {})
})

/** Checkout.com's limits on the fields we fill. */
const URL_LIMIT = 255
const DESCRIPTION_LIMIT = 100

/** Whether our return URL fits Checkout.com's `success_url` (255 characters). */
export const returnUrlFits = (request: AuthorizeRequest) => request.offSession || request.returnUrl.length <= URL_LIMIT

/**
 * The body of `POST /payments`: our attempt id as `reference` (it is the idempotency key too), the
 * capture asked for (also in `metadata`, so the details and webhooks tell it), 3D Secure for a
 * customer who is there, and our return URL for both ends of the redirect: the return asks
 * Checkout.com how it went, whatever the URL says. `previousTransaction`, the scheme's id of a stored
 * card's first authorization (made here or at another PSP), goes as `previous_payment_id` of a
 * merchant-initiated charge: the document takes "an existing payment identifier from the recurring
 * series or the Scheme Transaction ID" there.
 */
export const paymentBody = (
  request: AuthorizeRequest,
  amount: number,
  source: Record<string, unknown>,
  settings: CheckoutComSettings,
  previousTransaction: string | null = null
) => {
  const customer = request.customer
  const present = !request.offSession
  return {
    source,
    amount,
    currency: request.currency,
    reference: request.reference,
    capture: request.capture,
    processing_channel_id: settings.processing_channel_id,
    payment_type: present ? "Regular" : "Recurring",
    ...(present ? {} : { merchant_initiated: true }),
    ...(previousTransaction === null ? {} : { previous_payment_id: previousTransaction }),
    ...(request.description === null ? {} : { description: request.description.slice(0, DESCRIPTION_LIMIT) }),
    ...(customer === null || (customer.email === null && customer.name === null) ? {} : {
      customer: {
        ...(customer.email === null ? {} : { email: customer.email }),
        ...(customer.name === null ? {} : { name: customer.name })
      }
    }),
    ...(present && settings.three_ds ? { "3ds": { enabled: true } } : {}),
    ...(present ? { success_url: request.returnUrl, failure_url: request.returnUrl } : {}),
    metadata: { [CAPTURE_KEY]: request.capture ? "automatic" : "manual", payment_id: request.paymentId }
  }
}
