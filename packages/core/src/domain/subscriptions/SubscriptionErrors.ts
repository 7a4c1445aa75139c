import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"
import type { Subscription } from "./Subscription.js"

export class CustomerNotFound extends NotFound("CustomerNotFound", "customer") {}
export class PlanNotFound extends NotFound("PlanNotFound", "plan") {}
export class SubscriptionNotFound extends NotFound("SubscriptionNotFound", "subscription") {}
export class InvoiceNotFound extends NotFound("InvoiceNotFound", "invoice") {}
export class TestClockNotFound extends NotFound("TestClockNotFound", "test clock") {}

/** A request names an object (customer, plan, test clock) that this key cannot see. */
export class ReferenceNotFound extends ServiceFailure("ReferenceNotFound", {
  kind: "unprocessable",
  codes: ["resource_missing"],
  description: "The body names a customer, plan or test clock this key cannot see; `param` says which"
})<{
  readonly param: string
  readonly id: string
}> {
  get answer(): FailureAnswer {
    return { message: `No such ${this.param.replace("_", " ")}: '${echoed(this.id)}'`, param: this.param }
  }
}

/** The request is well-formed but cannot apply (another currency, a live-mode clock, time going back). */
export class BillingRequestInvalid extends ServiceFailure("BillingRequestInvalid", {
  kind: "unprocessable",
  codes: [
    "engine_not_supported",
    "currency_mismatch",
    "test_clock_livemode",
    "clock_time_not_forward",
    "clock_advance_too_far",
    "clock_time_out_of_range"
  ],
  description: "The request cannot apply: an engine no connector offers, a plan in another currency, a test clock " +
    "in live mode, a clock moved backwards or more than two years at once"
})<{
  readonly param: string
  readonly code: string
  readonly message: string
}> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, param: this.param }
  }
}

/** A canceled or expired subscription cannot change any more. */
export class SubscriptionFinal extends ServiceFailure("SubscriptionFinal", {
  kind: "conflict",
  codes: ["subscription_final"],
  description: "The subscription is canceled or expired and cannot change any more; it is inside"
})<{ readonly subscription: Subscription }> {
  get answer(): FailureAnswer {
    return { message: `This subscription is ${this.subscription.status}; it cannot change any more.`, concerns: this.subscription }
  }
}

/** The first charge was declined outright: the subscription (`incomplete`) is inside. */
export class SubscriptionDeclined extends ServiceFailure("SubscriptionDeclined", {
  kind: "refused",
  description: "The first charge was declined; the subscription (status `incomplete`) is inside, `code` says why"
})<{
  readonly subscription: Subscription
  readonly code: string
  readonly message: string
}> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, concerns: this.subscription }
  }
}

/** A test clock is busy with another advance. */
export class TestClockBusy extends ServiceFailure("TestClockBusy", {
  kind: "conflict",
  codes: ["test_clock_advancing"],
  description: "The test clock is already advancing"
})<{ readonly id: string }> {
  get answer(): FailureAnswer {
    return { message: `Test clock '${echoed(this.id)}' is already advancing; retry once it is ready.`, param: "id" }
  }
}
