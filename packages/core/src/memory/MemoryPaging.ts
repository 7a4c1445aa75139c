import { type DateTime, Effect } from "effect"
import { InvalidCursor, type ListOrder, type Page, type PageRequest } from "../domain/Pagination.js"

interface Listed {
  readonly id: string
  readonly created_at: DateTime.Utc
}

const byIdNewestFirst = (a: Listed, b: Listed) => a.id < b.id ? 1 : a.id > b.id ? -1 : 0

const newestFirst = (a: Listed, b: Listed) => b.created_at.epochMillis - a.created_at.epochMillis || byIdNewestFirst(a, b)

/** The list semantics of the API (newest first, cursors) over an array, for the in-memory repositories. */
export const pageOf = <A extends Listed>(
  visible: ReadonlyArray<A>,
  matching: (item: A) => boolean,
  page: PageRequest,
  /** `id`: in the order they were made (ids are time-ordered by the real clock), whatever their `created_at`. */
  order: ListOrder = "created_at"
): Effect.Effect<Page<A>, InvalidCursor> =>
  Effect.gen(function*() {
    const sorted = [...visible].sort(order === "id" ? byIdNewestFirst : newestFirst)
    let start = 0
    if (page.startingAfter !== undefined) {
      const index = sorted.findIndex((item) => item.id === page.startingAfter)
      if (index === -1) return yield* new InvalidCursor({ cursor: page.startingAfter })
      start = index + 1
    }
    const rest = sorted.slice(start).filter(matching)
    return { data: rest.slice(0, page.limit), hasMore: rest.length > page.limit }
  })
