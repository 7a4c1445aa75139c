import type { RawCard } from "@orchestrator/core"
import { Either, Redacted } from "effect"

/**
 * What the merchant's token stands for, as Adyen's `paymentMethod`:
 * - a JSON object (it starts with `{`): the `paymentMethod` that Adyen's Web Drop-in or Components
 *   hand the browser, e.g. `{"type":"scheme","encryptedCardNumber":"…",…}`, passed on as it is (the
 *   card data stays encrypted for Adyen; raw card numbers would need full PCI scope);
 * - anything else: a card Adyen stored (`storedPaymentMethodId`, from a tokenization webhook), which
 *   Adyen charges for the `shopperReference` it was stored for: our customer id.
 */
export const paymentMethodOf = (token: string): Either.Either<Record<string, unknown>, string> => {
  if (!token.trimStart().startsWith("{")) return Either.right({ type: "scheme", storedPaymentMethodId: token })
  try {
    const parsed: unknown = JSON.parse(token)
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) &&
        typeof (parsed as { type?: unknown }).type === "string"
      ? Either.right(parsed as Record<string, unknown>)
      : Either.left("The token is JSON but not an Adyen paymentMethod object with a type.")
  } catch {
    return Either.left("The token starts like JSON but is not valid JSON.")
  }
}

/** Whether the token is a card Adyen stored, which needs the card-on-file fields. */
export const isStoredPaymentMethod = (paymentMethod: Record<string, unknown>) => typeof paymentMethod.storedPaymentMethodId === "string"

/**
 * A card from the service's vault in Adyen's raw-card shape (`CardDetails`, `type: "scheme"`), for a
 * PCI-compliant sender: built only for the request's body, never kept.
 */
export const schemeCardOf = (card: RawCard): Record<string, unknown> => ({
  type: "scheme",
  number: Redacted.value(card.number),
  expiryMonth: String(card.expMonth).padStart(2, "0"),
  expiryYear: String(card.expYear),
  ...(card.cvc === null ? {} : { cvc: Redacted.value(card.cvc) }),
  ...(card.holderName === null ? {} : { holderName: card.holderName })
})
