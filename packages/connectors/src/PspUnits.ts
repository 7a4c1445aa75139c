import { type Currency, exponentOf, isCurrency } from "@orchestrator/core"
import { Either } from "effect"

/**
 * Our amounts are ISO 4217 minor units everywhere; some PSPs count some currencies in other units
 * (Stripe's ISK, Adyen's CLP). Each connector says its exponent per currency, and the shift is done
 * here, once, exactly: an amount the PSP cannot represent is refused, never rounded.
 */
export type PspExponent = (currency: Currency) => number | undefined

/** Why an amount cannot go to a PSP as asked. */
export interface AmountRefusal {
  readonly code: "currency_not_supported" | "amount_not_representable"
  readonly message: string
}

/** Our amount in the PSP's units, or why the PSP (named `psp` in the message) cannot take it. */
export const toPspUnits = (psp: string, exponent: PspExponent) => (amount: number, currency: Currency): Either.Either<number, AmountRefusal> => {
  const theirs = exponent(currency)
  if (theirs === undefined) {
    return Either.left({ code: "currency_not_supported", message: `${psp} does not process ${currency}.` })
  }
  const shift = theirs - exponentOf(currency)
  if (shift < 0 && amount % 10 ** -shift !== 0) {
    return Either.left({
      code: "amount_not_representable",
      message: `${psp} takes ${currency} in whole units only: the amount must be a multiple of ${10 ** -shift}.`
    })
  }
  return Either.right(shift >= 0 ? amount * 10 ** shift : amount / 10 ** -shift)
}

/** An amount in the PSP's units of `currency` (any case) back in our ISO minor units. */
export const fromPspUnits = (exponent: PspExponent) => (amount: number, currency: string): number => {
  const code = currency.toUpperCase()
  if (!isCurrency(code)) return amount
  const shift = (exponent(code as Currency) ?? exponentOf(code as Currency)) - exponentOf(code as Currency)
  return shift >= 0 ? Math.round(amount / 10 ** shift) : amount * 10 ** -shift
}
