import { type Currency, exponentOf, isCurrency } from "@orchestrator/core"
import { Either } from "effect"
import type { AmountRefusal } from "../PspUnits.js"

/** Mollie's amount: the currency and a decimal string with exactly the currency's decimals (`"10.00"`, `"1000"` in JPY). */
export interface MollieAmount {
  readonly currency: string
  readonly value: string
}

/**
 * Our amount (an integer of ISO minor units) as Mollie's decimal string, built from the digits, never
 * through a float. Mollie counts every currency it takes in ISO's decimals (none has more than 2).
 */
export const toMollieAmount = (amount: number, currency: Currency): Either.Either<MollieAmount, AmountRefusal> => {
  const exponent = exponentOf(currency)
  if (exponent > 2) return Either.left({ code: "currency_not_supported", message: `Mollie does not process ${currency}.` })
  if (!Number.isSafeInteger(amount) || amount < 0) {
    return Either.left({ code: "amount_not_representable", message: "The amount must be a whole number of minor units." })
  }
  const digits = String(amount).padStart(exponent + 1, "0")
  const value = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
  return Either.right({ currency, value })
}

/** A Mollie amount back in our ISO minor units, read digit by digit; `undefined` when it is not a decimal we can read. */
export const fromMollieAmount = (amount: MollieAmount): number | undefined => {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.value)
  const code = amount.currency.toUpperCase()
  if (match === null || !isCurrency(code)) return undefined
  const exponent = exponentOf(code as Currency)
  const fraction = match[2] ?? ""
  // More decimals than the currency has are only trailing zeros, or the value is not one of ours.
  if (fraction.length > exponent && !/^0*$/.test(fraction.slice(exponent))) return undefined
  const minor = Number(`${match[1]}${fraction.slice(0, exponent).padEnd(exponent, "0")}`)
  return Number.isSafeInteger(minor) ? minor : undefined
}
