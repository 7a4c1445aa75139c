import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/subscriptions/SubscriptionErrors"
import { ApiError, failWith } from "../ApiError.js"

const notFound = (what: string) => ({
  status: 404,
  type: "invalid_request_error" as const,
  codes: ["resource_missing"],
  description: `No ${what} with this id for this key`
})

export class CustomerNotFound extends ApiError<CustomerNotFound>()("CustomerNotFound", notFound("customer")) {
  readonly _tag = "CustomerNotFound" as const
}
export class PlanNotFound extends ApiError<PlanNotFound>()("PlanNotFound", notFound("plan")) {
  readonly _tag = "PlanNotFound" as const
}
export class SubscriptionNotFound extends ApiError<SubscriptionNotFound>()("SubscriptionNotFound", notFound("subscription")) {
  readonly _tag = "SubscriptionNotFound" as const
}
export class InvoiceNotFound extends ApiError<InvoiceNotFound>()("InvoiceNotFound", notFound("invoice")) {
  readonly _tag = "InvoiceNotFound" as const
}
export class TestClockNotFound extends ApiError<TestClockNotFound>()("TestClockNotFound", notFound("test clock")) {
  readonly _tag = "TestClockNotFound" as const
}

export class ReferenceNotFound extends ApiError<ReferenceNotFound>()("ReferenceNotFound", {
  status: 422,
  type: "invalid_request_error",
  codes: ["resource_missing"],
  description: "The body names a customer, plan or test clock this key cannot see; `param` says which"
}) {
  readonly _tag = "ReferenceNotFound" as const
}

export class BillingRequestInvalid extends ApiError<BillingRequestInvalid>()("BillingRequestInvalid", {
  status: 422,
  type: "invalid_request_error",
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
}) {
  readonly _tag = "BillingRequestInvalid" as const
}

export class SubscriptionFinal extends ApiError<SubscriptionFinal>()("SubscriptionFinal", {
  status: 409,
  type: "invalid_request_error",
  codes: ["subscription_final"],
  description: "The subscription is canceled or expired and cannot change any more; it is inside"
}) {
  readonly _tag = "SubscriptionFinal" as const
}

export class SubscriptionPaymentFailed extends ApiError<SubscriptionPaymentFailed>()("SubscriptionPaymentFailed", {
  status: 402,
  type: "payment_error",
  description: "The first charge was declined; the subscription (status `incomplete`) is inside, `code` says why"
}) {
  readonly _tag = "SubscriptionPaymentFailed" as const
}

export class TestClockBusy extends ApiError<TestClockBusy>()("TestClockBusy", {
  status: 409,
  type: "invalid_request_error",
  codes: ["test_clock_advancing"],
  description: "The test clock is already advancing"
}) {
  readonly _tag = "TestClockBusy" as const
}

export const billingFailures = {
  CustomerNotFound: (error: Domain.CustomerNotFound) =>
    failWith(CustomerNotFound, { message: `No such customer: '${echoed(error.id)}'`, param: "id" }),
  PlanNotFound: (error: Domain.PlanNotFound) => failWith(PlanNotFound, { message: `No such plan: '${echoed(error.id)}'`, param: "id" }),
  SubscriptionNotFound: (error: Domain.SubscriptionNotFound) =>
    failWith(SubscriptionNotFound, { message: `No such subscription: '${echoed(error.id)}'`, param: "id" }),
  InvoiceNotFound: (error: Domain.InvoiceNotFound) =>
    failWith(InvoiceNotFound, { message: `No such invoice: '${echoed(error.id)}'`, param: "id" }),
  TestClockNotFound: (error: Domain.TestClockNotFound) =>
    failWith(TestClockNotFound, { message: `No such test clock: '${echoed(error.id)}'`, param: "id" }),
  ReferenceNotFound: (error: Domain.ReferenceNotFound) =>
    failWith(ReferenceNotFound, { message: `No such ${error.param.replace("_", " ")}: '${echoed(error.id)}'`, param: error.param }),
  BillingRequestInvalid: (error: Domain.BillingRequestInvalid) =>
    failWith(BillingRequestInvalid, { code: error.code, message: error.message, param: error.param }),
  SubscriptionFinal: (error: Domain.SubscriptionFinal) =>
    failWith(SubscriptionFinal, {
      message: `This subscription is ${error.subscription.status}; it cannot change any more.`,
      subscription: error.subscription
    }),
  SubscriptionDeclined: (error: Domain.SubscriptionDeclined) =>
    failWith(SubscriptionPaymentFailed, { code: error.code, message: error.message, subscription: error.subscription }),
  TestClockBusy: (error: Domain.TestClockBusy) =>
    failWith(TestClockBusy, { message: `Test clock '${echoed(error.id)}' is already advancing; retry once it is ready.`, param: "id" })
}
