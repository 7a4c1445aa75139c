import type { Currency } from "@orchestrator/core"
import { Either } from "effect"
import { type AmountRefusal, fromPspUnits, toPspUnits } from "../PspUnits.js"

/**
 * Checkout.com's units (checkout.com/docs/resources/calculating-the-amount): the "full value"
 * currencies take no decimals, the "divide by 1000" ones three (with the last digit always 0),
 * every other currency two. Where that differs from ISO 4217 (CLP: ISO 0, here 2; CLF: ISO 4,
 * here 0) the shift is exact or the amount refused, never rounded.
 */
const FULL_VALUE = new Set("BIF CLF DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" "))
const THOUSANDTHS = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "))

const checkoutComExponent = (currency: Currency): number => FULL_VALUE.has(currency) ? 0 : THOUSANDTHS.has(currency) ? 3 : 2

/** Checkout.com takes at most 9 digits. */
const LARGEST = 999_999_999

const shift = toPspUnits("Checkout.com", checkoutComExponent)

/** Our amount (ISO minor units) in Checkout.com's units, or why Checkout.com cannot take it. */
export const toCheckoutComAmount = (amount: number, currency: Currency): Either.Either<number, AmountRefusal> =>
  Either.flatMap(shift(amount, currency), (theirs) => {
    if (THOUSANDTHS.has(currency) && theirs % 10 !== 0) {
      return Either.left({
        code: "amount_not_representable",
        message: `Checkout.com takes ${currency} to two decimals only: the amount in thousandths must end in 0.`
      })
    }
    if (theirs > LARGEST) {
      return Either.left({ code: "amount_not_representable", message: "Checkout.com takes amounts of at most 9 digits." })
    }
    return Either.right(theirs)
  })

/** A Checkout.com amount in `currency` back in our ISO minor units. */
export const fromCheckoutComAmount = fromPspUnits(checkoutComExponent)
