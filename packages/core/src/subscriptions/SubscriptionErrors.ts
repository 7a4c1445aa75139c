import { Data } from "effect"
import type { Subscription } from "./Subscription.js"

export class CustomerNotFound extends Data.TaggedError("CustomerNotFound")<{ readonly id: string }> {}
export class PlanNotFound extends Data.TaggedError("PlanNotFound")<{ readonly id: string }> {}
export class SubscriptionNotFound extends Data.TaggedError("SubscriptionNotFound")<{ readonly id: string }> {}
export class InvoiceNotFound extends Data.TaggedError("InvoiceNotFound")<{ readonly id: string }> {}
export class TestClockNotFound extends Data.TaggedError("TestClockNotFound")<{ readonly id: string }> {}

/** A request names an object (customer, plan, test clock) that this key cannot see. */
export class ReferenceNotFound extends Data.TaggedError("ReferenceNotFound")<{
  readonly param: string
  readonly id: string
}> {}

/** The request is well-formed but cannot apply (another currency, a live-mode clock, time going back). */
export class BillingRequestInvalid extends Data.TaggedError("BillingRequestInvalid")<{
  readonly param: string
  readonly code: string
  readonly message: string
}> {}

/** A canceled or expired subscription cannot change any more. */
export class SubscriptionFinal extends Data.TaggedError("SubscriptionFinal")<{ readonly subscription: Subscription }> {}

/** The first charge was declined outright: the subscription (`incomplete`) is inside. */
export class SubscriptionDeclined extends Data.TaggedError("SubscriptionDeclined")<{
  readonly subscription: Subscription
  readonly code: string
  readonly message: string
}> {}

/** A test clock is busy with another advance. */
export class TestClockBusy extends Data.TaggedError("TestClockBusy")<{ readonly id: string }> {}
