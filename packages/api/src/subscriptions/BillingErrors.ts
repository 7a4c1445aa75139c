import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/subscriptions/SubscriptionErrors"
import { apiErrors, failWith } from "../ApiError.js"

const notFound = (what: string) => ({
  status: 404,
  type: "invalid_request_error" as const,
  codes: ["resource_missing"],
  description: `No ${what} with this id for this key`
})

export const BillingErrors = apiErrors({
  CustomerNotFound: notFound("customer"),
  PlanNotFound: notFound("plan"),
  SubscriptionNotFound: notFound("subscription"),
  InvoiceNotFound: notFound("invoice"),
  TestClockNotFound: notFound("test clock"),
  ReferenceNotFound: {
    status: 422,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "The body names a customer, plan or test clock this key cannot see; `param` says which"
  },
  BillingRequestInvalid: {
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
  },
  SubscriptionFinal: {
    status: 409,
    type: "invalid_request_error",
    codes: ["subscription_final"],
    description: "The subscription is canceled or expired and cannot change any more; it is inside"
  },
  SubscriptionPaymentFailed: {
    status: 402,
    type: "payment_error",
    description: "The first charge was declined; the subscription (status `incomplete`) is inside, `code` says why"
  },
  TestClockBusy: {
    status: 409,
    type: "invalid_request_error",
    codes: ["test_clock_advancing"],
    description: "The test clock is already advancing"
  }
})

export const billingFailures = {
  CustomerNotFound: (error: Domain.CustomerNotFound) =>
    failWith(BillingErrors.CustomerNotFound, { message: `No such customer: '${echoed(error.id)}'`, param: "id" }),
  PlanNotFound: (error: Domain.PlanNotFound) => failWith(BillingErrors.PlanNotFound, { message: `No such plan: '${echoed(error.id)}'`, param: "id" }),
  SubscriptionNotFound: (error: Domain.SubscriptionNotFound) =>
    failWith(BillingErrors.SubscriptionNotFound, { message: `No such subscription: '${echoed(error.id)}'`, param: "id" }),
  InvoiceNotFound: (error: Domain.InvoiceNotFound) =>
    failWith(BillingErrors.InvoiceNotFound, { message: `No such invoice: '${echoed(error.id)}'`, param: "id" }),
  TestClockNotFound: (error: Domain.TestClockNotFound) =>
    failWith(BillingErrors.TestClockNotFound, { message: `No such test clock: '${echoed(error.id)}'`, param: "id" }),
  ReferenceNotFound: (error: Domain.ReferenceNotFound) =>
    failWith(BillingErrors.ReferenceNotFound, { message: `No such ${error.param.replace("_", " ")}: '${echoed(error.id)}'`, param: error.param }),
  BillingRequestInvalid: (error: Domain.BillingRequestInvalid) =>
    failWith(BillingErrors.BillingRequestInvalid, { code: error.code, message: error.message, param: error.param }),
  SubscriptionFinal: (error: Domain.SubscriptionFinal) =>
    failWith(BillingErrors.SubscriptionFinal, {
      message: `This subscription is ${error.subscription.status}; it cannot change any more.`,
      subscription: error.subscription
    }),
  SubscriptionDeclined: (error: Domain.SubscriptionDeclined) =>
    failWith(BillingErrors.SubscriptionPaymentFailed, { code: error.code, message: error.message, subscription: error.subscription }),
  TestClockBusy: (error: Domain.TestClockBusy) =>
    failWith(BillingErrors.TestClockBusy, { message: `Test clock '${echoed(error.id)}' is already advancing; retry once it is ready.`, param: "id" })
}
