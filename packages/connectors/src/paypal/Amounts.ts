import { type Currency, exponentOf, isCurrency } from "@orchestrator/core"
import { Either } from "effect"
import { type AmountRefusal, toPspUnits } from "../PspUnits.js"

/**
 * PayPal's decimals where they differ from ISO 4217 (developer.paypal.com/api/rest/reference/currency-codes:
 * HUF and TWD "do not support decimals"; JPY has none in both). Currencies of more than three
 * decimals are refused.
 */
const PAYPAL_EXPONENTS: Readonly<Record<string, number>> = { HUF: 0, TWD: 0 }

const paypalExponent = (currency: Currency): number | undefined => {
  const exponent = PAYPAL_EXPONENTS[currency] ?? exponentOf(currency)
  return exponent <= 3 ? exponent : undefined
}

const toUnits = toPspUnits("PayPal", paypalExponent)

/** An integer count of units written with `exponent` decimals: 1050, 2 → "10.50"; 1050, 0 → "1050". */
const decimalString = (units: number, exponent: number): string => {
  if (exponent === 0) return String(units)
  const digits = String(units).padStart(exponent + 1, "0")
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

/** PayPal's `{currency_code, value}` for our amount (ISO minor units), or why PayPal cannot take it. */
export const toPayPalMoney = (amount: number, currency: Currency): Either.Either<PayPalMoney, AmountRefusal> =>
  Either.map(toUnits(amount, currency), (units) => ({
    currency_code: currency,
    value: decimalString(units, paypalExponent(currency)!)
  }))

export interface PayPalMoney {
  readonly currency_code: string
  readonly value: string
}

/**
 * A PayPal `value` back in our ISO minor units, read as text (never through a float): "10.5" EUR is
 * 1050. `undefined` when it is not a decimal of at most the currency's decimals.
 */
export const fromPayPalMoney = (money: PayPalMoney): number | undefined => {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(money.value)
  const code = money.currency_code.toUpperCase() as Currency
  if (match === null || !isCurrency(code)) return undefined
  const exponent = exponentOf(code)
  const fraction = match[2] ?? ""
  if (fraction.length > exponent && !/^0*$/.test(fraction.slice(exponent))) return undefined
  return Number(match[1]) * 10 ** exponent + Number(fraction.slice(0, exponent).padEnd(exponent, "0") || "0")
}
