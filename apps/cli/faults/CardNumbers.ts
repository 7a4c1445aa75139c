/**
 * The card the fault suite vaults, and how to find its number in any text: digits alone, in groups
 * of four, or with any single space or dash between digits (the forms a log line or a form keeps).
 */
import { execFileSync } from "node:child_process"
import type { DatabaseTarget } from "./Database.js"

export const VAULTED_CARD = { number: "4242424242424242", exp_month: 12, exp_year: 2040, cvc: "123" } as const

const pattern = new RegExp(VAULTED_CARD.number.split("").join("[ -]?"))

export const holdsCardNumber = (text: string) => pattern.test(text)

/**
 * Everything the service printed, searched as it arrives; the tail of each chunk is kept so a number
 * split across two chunks is still seen.
 */
export class OutputScan {
  private tail = ""
  sightings = 0

  read(chunk: string) {
    const text = this.tail + chunk
    if (holdsCardNumber(text)) this.sightings++
    this.tail = text.slice(-40)
  }
}

/** The whole database as `pg_dump` writes it (every schema, the vault's included), searched for the number. */
export const dumpHoldsCardNumber = (database: DatabaseTarget) =>
  holdsCardNumber(execFileSync("pg_dump", ["--no-owner", database.url], { encoding: "utf8", maxBuffer: 1 << 30 }))
