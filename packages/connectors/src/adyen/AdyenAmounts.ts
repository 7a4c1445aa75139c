import { type Currency, exponentOf } from "@orchestrator/core"
import { fromPspUnits, toPspUnits } from "../PspUnits.js"

/**
 * Adyen's minor units where they differ from ISO 4217 (docs.adyen.com/development-resources/currency-codes:
 * "for CLP, CVE, IDR and ISK the standard has a different number of decimals"): CLP and ISK take 2
 * (ISO 0), CVE and IDR take 0 (ISO 2). Four-decimal ISO currencies (CLF, UYW) are refused.
 */
const ADYEN_EXPONENTS: Readonly<Record<string, number>> = { CLP: 2, ISK: 2, CVE: 0, IDR: 0 }

const adyenExponent = (currency: Currency): number | undefined => {
  const exponent = ADYEN_EXPONENTS[currency] ?? exponentOf(currency)
  return exponent <= 3 ? exponent : undefined
}

/** Our amount (ISO minor units) as Adyen's `value`, or why Adyen cannot take it. */
export const toAdyenValue = toPspUnits("Adyen", adyenExponent)

/** An Adyen `value` in `currency` back in our ISO minor units. */
export const fromAdyenValue = fromPspUnits(adyenExponent)
