import { h } from "./Dom.js"

/**
 * A time of an object billed on a test clock is the clock's, not today's: the cell says so, so a
 * 2028 payment at the top of a list is not taken for a real one.
 */
export const clockTime = (time: string, testClock: string | null | undefined) =>
  testClock === null || testClock === undefined
    ? time
    : h("span", { title: `Simulated time of test clock ${testClock}` }, time, " ", h("span", { class: "badge status-test-clock" }, "test clock"))
