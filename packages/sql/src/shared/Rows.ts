/** Helpers shared by the SQL repositories for the differences between `pg` and PGlite rows. */

/** `timestamptz` arrives as a `Date` at the top level and as a string inside JSON. */
export const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()

/** `bigint` arrives as a string from `pg` and as a number from PGlite. */
export const int = (value: unknown): number => {
  const number = typeof value === "number" ? value : Number(value)
  if (!Number.isSafeInteger(number)) throw new Error(`not an integer column value: ${String(value)}`)
  return number
}

/** `jsonb` parameters go in as text with a `::jsonb` cast; `null` stays SQL NULL. */
export const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value))

/** A `json` column that a driver left as text. */
export const parsed = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) : value) as A
