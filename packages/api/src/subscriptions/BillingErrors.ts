import { echoed } from "@orchestrator/core"
import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"

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

/** Each class by its name, for endpoint declarations and `failWith`. */
export const {
  CustomerNotFound,
  PlanNotFound,
  SubscriptionNotFound,
  InvoiceNotFound,
  TestClockNotFound,
  ReferenceNotFound,
  BillingRequestInvalid,
  SubscriptionFinal,
  SubscriptionPaymentFailed,
  TestClockBusy
} = BillingErrors

export const billingFailures = {
  CustomerNotFound: noSuch(CustomerNotFound, "customer"),
  PlanNotFound: noSuch(PlanNotFound, "plan"),
  SubscriptionNotFound: noSuch(SubscriptionNotFound, "subscription"),
  InvoiceNotFound: noSuch(InvoiceNotFound, "invoice"),
  TestClockNotFound: noSuch(TestClockNotFound, "test clock"),
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
