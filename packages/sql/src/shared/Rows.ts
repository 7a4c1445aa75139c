/** Helpers shared by the SQL repositories for the differences between `pg` and PGlite rows. */
import { Effect, Option, Schema } from "effect"

/** `timestamptz` arrives as a `Date` at the top level and as a string inside JSON. */
export const iso = (value: unknown): string => value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()

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

/**
 * Column schemas: a row is decoded with a `Schema.Struct` of these, which absorb the drivers'
 * differences, before the domain's schema decodes the record it holds.
 */
export const Column = {
  /** `timestamptz` as an ISO string, whether the driver gave a `Date` or text. */
  timestamp: Schema.transform(Schema.Union(Schema.DateFromSelf, Schema.String), Schema.String, {
    strict: true,
    decode: iso,
    encode: (value) => value
  }),
  /** `bigint` or `integer` as a safe integer, whether the driver gave a number or text. */
  integer: Schema.Union(Schema.Int, Schema.compose(Schema.NumberFromString, Schema.Int)),
  /** A computed `numeric` (a sum, a bucket) as a number, whether the driver gave a number or text. */
  number: Schema.Union(Schema.Number, Schema.NumberFromString),
  /** `json`/`jsonb` as its value, whether the driver parsed it or left it as text. */
  json: Schema.transform(Schema.Unknown, Schema.Unknown, { strict: true, decode: parsed, encode: (value) => value }),
  text: Schema.String,
  nullableText: Schema.NullOr(Schema.String),
  boolean: Schema.Boolean
}

/** What every stored API object's row has besides its own columns: its mode, its creation and its last change. */
export const stampColumns = {
  livemode: Column.boolean,
  created_at: Column.timestamp,
  updated_at: Column.timestamp
}

/** Reads a row with its column schema, then builds what it holds from the decoded columns. */
export const fromRow = <R, RI, A>(row: Schema.Schema<R, RI>, build: (columns: R) => A) => {
  const decodeRow = Schema.decodeUnknownSync(row)
  return (value: unknown): A => build(decodeRow(value))
}

/** Reads a row with its column schema, then as the API object named `object` with the domain's schema. */
export const objectFromRow = <R, RI, A, AI>(row: Schema.Schema<R, RI>, object: string, domain: Schema.Schema<A, AI>) => {
  const decode = Schema.decodeUnknownSync(domain)
  return fromRow(row, (columns): A => decode({ object, ...columns }))
}

/** A query's first row decoded, or none; a failing query is a defect, as everywhere in these repositories. */
export const firstRow = <Row, A>(decode: (row: Row) => A) => <E, R>(query: Effect.Effect<ReadonlyArray<Row>, E, R>) =>
  query.pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), decode)), Effect.orDie)
