import { timeOfId } from "@orchestrator/core"
import type { DateTime } from "effect"
import { h } from "./Dom.js"
import { when } from "./Format.js"

/**
 * A time of an object billed on a test clock is the clock's, not today's: the cell says so, so a
 * 2028 payment at the top of a list is not taken for a real one.
 */
export const clockTime = (time: string, testClock: string | null | undefined) =>
  testClock === null || testClock === undefined
    ? time
    : h("span", { title: `Simulated time of test clock ${testClock}` }, time, " ", h("span", { class: "badge status-test-clock" }, "test clock"))

/**
 * When a payment was made, for a list in that order: its `created_at`, except on a test clock, whose
 * `created_at` is the clock's: then when it was really made (read from its id), marked, with the
 * clock's time beside it.
 */
export const madeAt = (payment: { readonly id: string; readonly created_at: DateTime.Utc; readonly metadata: { readonly test_clock?: string } }) => {
  const clock = payment.metadata.test_clock
  const made = timeOfId(payment.id)
  if (clock === undefined || made === undefined) return when(payment.created_at)
  const simulated = when(payment.created_at)
  return h(
    "span",
    { title: `Made on test clock ${clock}, whose time was ${simulated}` },
    when(new Date(made).toISOString()),
    " ",
    h("span", { class: "badge status-test-clock" }, "test clock"),
    h("span", { class: "muted" }, ` clock time ${simulated}`)
  )
}
