import { Schema } from "effect"
import { RequestBody } from "../domain/RequestBody.js"
import { BoundedString } from "../domain/Text.js"
import { TimeFilter, Timestamp } from "../domain/Timestamp.js"

/** `advancing` while an advance is running the clock's due work; `ready` once all of it has settled. */
export const TestClockStatus = Schema.Literal("ready", "advancing", "internal_failure")
export type TestClockStatus = typeof TestClockStatus.Type

/** Simulated time for the customers created on it (test mode only), as in Stripe. */
export class TestClock extends Schema.Class<TestClock>("TestClock")({
  object: Schema.Literal("test_helpers.test_clock"),
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  frozen_time: Timestamp,
  status: TestClockStatus,
  created_at: Timestamp,
  livemode: Schema.Boolean
}) {}

export const CreateTestClock = RequestBody("CreateTestClock", {
  frozen_time: TimeFilter,
  name: Schema.optional(BoundedString)
})
export type CreateTestClock = typeof CreateTestClock.Type

export const AdvanceTestClock = RequestBody("AdvanceTestClock", {
  frozen_time: TimeFilter
})
export type AdvanceTestClock = typeof AdvanceTestClock.Type
