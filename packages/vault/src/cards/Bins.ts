/** What a card's first digits (its BIN) tell: enough to route and to show, never enough to charge. */
export interface BinFacts {
  readonly brand: string
  readonly funding: "credit" | "debit" | "prepaid" | "unknown"
  readonly country: string | null
}

/**
 * The PSPs' documented test cards' BINs, longest prefix first. A real BIN source (a scheme's or an
 * acquirer's table) would replace this list behind `binFacts`.
 */
const TEST_BINS: ReadonlyArray<readonly [string, BinFacts]> = [
  ["4000056655665556", { brand: "visa", funding: "debit", country: "US" }],
  ["5200828282828210", { brand: "mastercard", funding: "debit", country: "US" }],
  ["4000002500003155", { brand: "visa", funding: "credit", country: "FR" }],
  ["4000000000000077", { brand: "visa", funding: "credit", country: "US" }],
  ["4111111111111111", { brand: "visa", funding: "credit", country: "US" }],
  ["5105105105105100", { brand: "mastercard", funding: "prepaid", country: "US" }],
  ["424242", { brand: "visa", funding: "credit", country: "US" }],
  ["400000", { brand: "visa", funding: "credit", country: "US" }],
  ["401288", { brand: "visa", funding: "credit", country: "GB" }],
  ["555555", { brand: "mastercard", funding: "credit", country: "US" }],
  ["222300", { brand: "mastercard", funding: "credit", country: "US" }],
  ["545454", { brand: "mastercard", funding: "credit", country: "NL" }],
  ["378282", { brand: "amex", funding: "credit", country: "US" }],
  ["371449", { brand: "amex", funding: "credit", country: "US" }],
  ["601111", { brand: "discover", funding: "credit", country: "US" }]
]

/** The brand from the number's ranges alone, when the BIN is not in the table. */
export const brandOf = (digits: string): string => {
  if (/^4/.test(digits)) return "visa"
  const two = Number(digits.slice(0, 2))
  const four = Number(digits.slice(0, 4))
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "mastercard"
  if (two === 34 || two === 37) return "amex"
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover"
  return "unknown"
}

export const isAmex = (digits: string): boolean => brandOf(digits) === "amex"

/** The card's facts: from the table when its BIN is there, else its brand only. */
export const binFacts = (digits: string): BinFacts =>
  TEST_BINS.find(([prefix]) => digits.startsWith(prefix))?.[1] ?? { brand: brandOf(digits), funding: "unknown", country: null }

/**
 * Whether the number is one of the PSPs' documented test cards (its BIN in the table). Test mode
 * takes only these, as Stripe's does: a test key, which any developer holds and whose connections may
 * point anywhere, must never be a way to put a real card in the vault or to send one out.
 */
export const isTestCard = (digits: string): boolean => TEST_BINS.some(([prefix]) => digits.startsWith(prefix))
