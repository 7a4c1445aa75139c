/**
 * What makes a card's data plausible, checked before anything is stored. Pure: the current year and
 * month come from the caller.
 */
export interface CardProblem {
  readonly code: string
  readonly param: string
  readonly message: string
}

/** The digits of a number as typed (spaces and dashes allowed between groups); `undefined` when anything else is in it. */
export const cardDigits = (number: string): string | undefined => {
  const digits = number.replace(/[ -]/g, "")
  return /^[0-9]+$/.test(digits) ? digits : undefined
}

/** The Luhn (mod 10) check every card number passes. */
export const luhnValid = (digits: string): boolean => {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

const problem = (code: string, param: string, message: string): CardProblem => ({ code, param, message })

/** The first thing wrong with the card, or `undefined`. */
export const cardProblem = (
  card: { readonly number: string; readonly exp_month: number; readonly exp_year: number; readonly cvc?: string | undefined },
  today: { readonly year: number; readonly month: number },
  isAmex: (digits: string) => boolean
): CardProblem | undefined => {
  const digits = cardDigits(card.number)
  if (digits === undefined) return problem("invalid_number", "card.number", "The card number may contain only digits (and spaces).")
  if (digits.length < 13 || digits.length > 19) {
    return problem("invalid_number", "card.number", "The card number must have 13 to 19 digits.")
  }
  if (!luhnValid(digits)) return problem("invalid_number", "card.number", "The card number is not valid (its check digit is wrong).")
  if (card.exp_month < 1 || card.exp_month > 12) {
    return problem("invalid_expiry_month", "card.exp_month", "The expiry month must be 1 to 12.")
  }
  if (card.exp_year < 1000 || card.exp_year > today.year + 50) {
    return problem("invalid_expiry_year", "card.exp_year", "The expiry year must have four digits and be at most 50 years ahead.")
  }
  if (card.exp_year < today.year || (card.exp_year === today.year && card.exp_month < today.month)) {
    return problem("expired_card", "card.exp_year", "The card has expired.")
  }
  if (card.cvc !== undefined) {
    const length = isAmex(digits) ? 4 : 3
    if (!new RegExp(`^[0-9]{${length}}$`).test(card.cvc)) {
      return problem("invalid_cvc", "card.cvc", `The security code must be ${length} digits for this card.`)
    }
  }
  return undefined
}

/**
 * `text` with every run of digits shaped like a card number (13 to 19 digits, maybe grouped by spaces
 * or dashes, a network's first digit, passing Luhn) replaced by `replacement`: for text from outside
 * (a PSP's error page may echo the request it was sent) before it is kept or exported.
 */
export const scrubCardNumbers = (text: string, replacement = "[redacted]"): string =>
  text.replace(/(?<![\w.])[2-6](?:[ -]?\d){12,18}(?![\w.])/g, (match) => luhnValid(match.replace(/[ -]/g, "")) ? replacement : match)
