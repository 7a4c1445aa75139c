import { Schema } from "effect"
import { DecimalInteger } from "./DecimalInteger.js"
import { echoed } from "./EchoedText.js"
import { type FailureAnswer, ServiceFailure } from "./Failure.js"
import { field, optionalField } from "./Field.js"
import { Identifier } from "./Text.js"

/** `limit` 1..100 (default 20) and `starting_after`, the id of the last item of the previous page. */
export const PageLimit = DecimalInteger(1, 100)

/**
 * The order of a list, newest first either way: by `created_at` (the documented order), or by `id`,
 * the order objects were made in whatever time they carry (ids are time-ordered by the real clock;
 * a test clock's objects carry its simulated time).
 */
export type ListOrder = "created_at" | "id"

export interface PageRequest {
  readonly limit: number
  readonly startingAfter: string | undefined
}

/** The query parameters every list takes, to spread into its query schema. */
export const PageQuery = {
  limit: optionalField(PageLimit, "How many objects to return: 1 to 100, default 20."),
  starting_after: optionalField(
    Identifier,
    "A cursor: the id of the last object of the previous page (its `next_cursor`); the page starts after it."
  )
}

/** The page a list query asks for: 20 items unless `limit` says otherwise. */
export const pageRequestOf = (query: {
  readonly limit?: number | undefined
  readonly starting_after?: string | undefined
}): PageRequest => ({ limit: query.limit ?? 20, startingAfter: query.starting_after })

export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly hasMore: boolean
}

/** The list envelope of the seed: newest first, `next_cursor` is the last id when there is more. */
export const ListOf = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    object: field(Schema.Literal("list"), "Always `list`."),
    data: field(Schema.Array(item), "This page's objects, newest first (routing rules: in the order they are evaluated)."),
    has_more: field(Schema.Boolean, "Whether there are more objects after this page."),
    next_cursor: field(
      Schema.NullOr(Schema.String),
      "The id to pass as `starting_after` for the next page; `null` when `has_more` is false."
    )
  })

export const toList = <A extends { readonly id: string }>(page: Page<A>) => ({
  object: "list" as const,
  data: page.data,
  has_more: page.hasMore,
  next_cursor: page.hasMore && page.data.length > 0 ? page.data[page.data.length - 1]!.id : null
})

/** `starting_after` names no object this caller can see. */
export class InvalidCursor extends ServiceFailure("InvalidCursor", {
  kind: "invalid",
  codes: ["parameter_invalid"],
  description: "`starting_after` names no object this key can see"
})<{ readonly cursor: string }> {
  get answer(): FailureAnswer {
    return { message: `No object '${echoed(this.cursor)}' to start after.`, param: "starting_after" }
  }
}
