import { Schema } from "effect"
import { type Currency, exponentOf } from "./Currency.js"

export const MAX_AMOUNT = 99_999_999

/**
 * An amount in integer minor units of its currency (cents for EUR, yen for JPY, fils for KWD).
 * JSON numbers with a fraction, strings, NaN and anything outside 1..99 999 999 are refused.
 */
export const Amount = Schema.Number.pipe(
  Schema.int({ message: () => "must be an integer amount in minor units (e.g. 1050 for 10.50 EUR)" }),
  Schema.between(1, MAX_AMOUNT, { message: () => `must be between 1 and ${MAX_AMOUNT} minor units` }),
  Schema.annotations({ identifier: "Amount", description: "Integer in minor units of the currency" })
)
export type Amount = typeof Amount.Type

/** A non-negative total in minor units, such as `amount_refunded`. */
export const MinorUnits = Schema.NonNegativeInt.pipe(Schema.annotations({ identifier: "MinorUnits" }))

/**
 * The decimal string of an amount ("10.50" for 1050 EUR, "1050" for JPY, "1.050" for KWD), built with
 * string arithmetic only: connectors that want major units must never go through a float.
 */
export const toDecimalString = (amount: number, currency: Currency): string => {
  const exponent = exponentOf(currency)
  const digits = String(amount).padStart(exponent + 1, "0")
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

/** The inverse of `toDecimalString`; `undefined` when the string has more decimals than the currency. */
export const fromDecimalString = (text: string, currency: Currency): number | undefined => {
  const exponent = exponentOf(currency)
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (match === null) return undefined
  const fraction = match[2] ?? ""
  if (fraction.length > exponent) return undefined
  const value = Number(match[1] + fraction.padEnd(exponent, "0"))
  return Number.isSafeInteger(value) ? value : undefined
}
