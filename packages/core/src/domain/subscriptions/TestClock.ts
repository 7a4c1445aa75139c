import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString } from "../Text.js"
import { TimeFilter, Timestamp } from "../Timestamp.js"

/** `advancing` while an advance is running the clock's due work; `ready` once all of it has settled. */
export const TestClockStatus = Schema.Literal("ready", "advancing", "internal_failure")
export type TestClockStatus = typeof TestClockStatus.Type

/** Simulated time for the customers created on it (test mode only), as in Stripe. */
export class TestClock extends Schema.Class<TestClock>("TestClock")({
  object: field(Schema.Literal("test_helpers.test_clock"), "Always `test_helpers.test_clock`."),
  id: field(Schema.String, "The clock's id (`clock_…`)."),
  name: field(Schema.NullOr(Schema.String), "Your name for it, or `null`."),
  frozen_time: field(Timestamp, "The clock's current time (ISO 8601 UTC)."),
  status: field(TestClockStatus, "`ready`, `advancing` while an advance runs what is due, or `internal_failure` if that failed."),
  created_at: field(Timestamp, "When the clock was created (real time, ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "Always `false`: test clocks are test mode only.")
}) {}

export const CreateTestClock = RequestBody("CreateTestClock", {
  frozen_time: field(TimeFilter, "The clock's starting time (ISO 8601)."),
  name: optionalField(BoundedString, "Your name for it.")
})
export type CreateTestClock = typeof CreateTestClock.Type

export const AdvanceTestClock = RequestBody("AdvanceTestClock", {
  frozen_time: field(TimeFilter, "The time to move the clock to (ISO 8601), later than its current time.")
})
export type AdvanceTestClock = typeof AdvanceTestClock.Type
