import { type Currency, exponentOf } from "@orchestrator/core"
import { Either } from "effect"
import { type AmountRefusal, fromPspUnits, toPspUnits } from "../PspUnits.js"

/**
 * Stripe's own minor units, where they differ from ISO 4217 (docs.stripe.com/currencies):
 * - zero-decimal on Stripe: BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF — MGA is
 *   2 in ISO, so our amount must be whole ariary; UGX is 0 on both sides and goes unchanged;
 * - ISK stays two-decimal on Stripe for backward compatibility, in whole krónur: ISO's 0 times 100;
 * - BHD JOD KWD OMR TND are three-decimal like ISO, but Stripe's partners want the last digit 0;
 * - IQD LYD (3 in ISO) and CLF UYW (4) are not Stripe currencies: refused here, clearly, rather than
 *   sent in a unit Stripe would misread.
 */
const ZERO_DECIMAL = new Set("BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF".split(" "))
const THREE_DECIMAL = new Set("BHD JOD KWD OMR TND".split(" "))

const stripeExponent = (currency: Currency): number | undefined => {
  if (ZERO_DECIMAL.has(currency)) return 0
  if (currency === "ISK") return 2
  if (THREE_DECIMAL.has(currency)) return 3
  const iso = exponentOf(currency)
  return iso <= 2 ? iso : undefined
}

const inStripeUnits = toPspUnits("Stripe", stripeExponent)

/** Our amount (ISO minor units) in Stripe's units, or why Stripe cannot take it. */
export const toStripeAmount = (amount: number, currency: Currency): Either.Either<number, AmountRefusal> =>
  THREE_DECIMAL.has(currency) && amount % 10 !== 0
    ? Either.left({
      code: "amount_not_representable",
      message: `Stripe takes ${currency} amounts whose last digit is 0, e.g. 5120 for 5.124 rounded.`
    })
    : inStripeUnits(amount, currency)

/** A Stripe amount in `stripeCurrency` (its lower-case code) back in our ISO minor units. */
export const fromStripeAmount = fromPspUnits(stripeExponent)

/** Stripe wants currency codes in lower case. */
export const stripeCurrency = (currency: Currency) => currency.toLowerCase()
