import { type Currency, toDecimalString } from "@orchestrator/core"
import { DateTime } from "effect"

/** `2500` EUR as `25.00 EUR`: amounts stay integers in minor units until they are shown. */
export const money = (amount: number, currency: string) => `${toDecimalString(amount, currency as Currency)} ${currency}`

/** A timestamp as the schemas decode it (or an ISO string), shown in the reader's time zone. */
export const when = (value: DateTime.Utc | string | null | undefined): string => {
  if (value === null || value === undefined) return "—"
  const date = typeof value === "string" ? new Date(value) : DateTime.toDate(value)
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" })
}

export const percent = (ratio: number | null | undefined) => ratio === null || ratio === undefined ? "—" : `${(ratio * 100).toFixed(1)}%`

export const millis = (value: number | null | undefined) => (value === null || value === undefined ? "—" : `${value} ms`)
