import { Schema } from "effect"

/**
 * Active ISO 4217 codes and their minor-unit exponents (datasets/currency-codes, Feb 2026).
 * Codes without minor units (precious metals, XDR, XTS, XXX) cannot carry a payment and are left out.
 */
const ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
const THREE = "BHD IQD JOD KWD LYD OMR TND"
const FOUR = "CLF UYW"
const TWO = [
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD",
  "CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS",
  "GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL",
  "MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK",
  "PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS",
  "TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG"
].join(" ")

const exponents: ReadonlyMap<string, number> = new Map([
  ...ZERO.split(" ").map((code) => [code, 0] as const),
  ...TWO.split(" ").map((code) => [code, 2] as const),
  ...THREE.split(" ").map((code) => [code, 3] as const),
  ...FOUR.split(" ").map((code) => [code, 4] as const)
])

export const currencyCodes: ReadonlyArray<string> = [...exponents.keys()].sort()

export const isCurrency = (code: string): boolean => exponents.has(code)

/** Digits after the decimal point: JPY 0, EUR 2, KWD 3. */
export const exponentOf = (currency: Currency): number => exponents.get(currency)!

/** An active ISO 4217 code in upper case, unbranded: a list filter takes it as the string it is. */
export const CurrencyCode = Schema.String.pipe(
  Schema.filter((code) => isCurrency(code) || "must be an active ISO 4217 currency code in upper case, e.g. EUR")
)

/** An active ISO 4217 code in upper case, e.g. `EUR`. */
export const Currency = CurrencyCode.pipe(
  Schema.brand("Currency"),
  Schema.annotations({ identifier: "Currency", description: "Active ISO 4217 code in upper case" })
)
export type Currency = typeof Currency.Type
