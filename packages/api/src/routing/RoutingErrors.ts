import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"

export const RoutingErrors = apiErrors({
  RoutingRuleNotFound: notFound("routing rule"),
  RoutingRuleInvalid: {
    status: 422,
    type: "invalid_request_error",
    codes: ["routing_rule_invalid"],
    description: "An unknown condition, an empty list, gte above lte, a non-integer bound, or an unknown provider"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { RoutingRuleNotFound, RoutingRuleInvalid } = RoutingErrors

export const routingFailures = {
  RoutingRuleNotFound: noSuch(RoutingRuleNotFound, "routing rule"),
  RoutingRuleInvalid: (error: Domain.RoutingRuleInvalid) =>
    failWith(RoutingRuleInvalid, { message: `Invalid ${error.param}: ${error.reason}.`, param: error.param })
}
