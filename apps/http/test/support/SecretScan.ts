/**
 * Everything a test suite saw (response bodies and headers, log lines, events) and every secret it
 * knows of, searched at the end: a secret may appear only where it belongs.
 */

export type SecretKind = "api_key" | "psp_credential" | "psp_webhook_secret" | "webhook_secret" | "client_secret"

export interface Finding {
  readonly kind: SecretKind | "card_number"
  readonly where: string
  /** The secret, shortened so the report does not become a leak of its own. */
  readonly value: string
}

/** Luhn's checksum, as card numbers carry it. */
export const passesLuhn = (digits: string): boolean => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/**
 * Card numbers in `text`: 13 to 19 digits (optionally grouped by spaces or dashes) with a card
 * network's leading digit (2 to 6) and a valid Luhn checksum, not inside a longer word or number.
 * Tokens such as `tok_visa` and the last four digits are not card numbers.
 */
export const cardNumbersIn = (text: string): Array<string> => {
  const found: Array<string> = []
  for (const match of text.matchAll(/(?<![\w.])[2-6](?:[ -]?\d){12,18}(?![\w.])/g)) {
    const digits = match[0].replace(/[ -]/g, "")
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) found.push(digits)
  }
  return found
}

const shorten = (value: string) => value.length <= 14 ? value : `${value.slice(0, 12)}…`

export class SecretScan {
  private readonly texts: Array<{ readonly where: string; readonly text: string }> = []
  private readonly secrets = new Map<string, SecretKind>()

  /** A secret that must appear nowhere this scan looks, except where `allowed` says. */
  secret(kind: SecretKind, value: string): void {
    if (value.length >= 8) this.secrets.set(value, kind)
  }

  /** Something the suite received or the service wrote. */
  saw(where: string, text: string): void {
    this.texts.push({ where, text })
  }

  get size(): number {
    return this.texts.length
  }

  get secretCount(): number {
    return this.secrets.size
  }

  /**
   * Every secret found, and every card number. `allowed(where, kind)` names the places a kind
   * belongs (a webhook endpoint's signing secret in its creation and rotation answers).
   */
  findings(allowed: (where: string, kind: SecretKind) => boolean = () => false): Array<Finding> {
    const findings: Array<Finding> = []
    for (const { text, where } of this.texts) {
      for (const [value, kind] of this.secrets) {
        if (text.includes(value) && !allowed(where, kind)) findings.push({ kind, where, value: shorten(value) })
      }
      for (const digits of cardNumbersIn(text)) findings.push({ kind: "card_number", where, value: `${digits.slice(0, 6)}…` })
    }
    return findings
  }
}
