import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/routing/RoutingErrors"
import { apiErrors, failWith } from "../ApiError.js"

export const RoutingErrors = apiErrors({
  RoutingRuleNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No routing rule with this id for this key"
  },
  RoutingRuleInvalid: {
    status: 422,
    type: "invalid_request_error",
    codes: ["routing_rule_invalid"],
    description: "An unknown condition, an empty list, gte above lte, a non-integer bound, or an unknown provider"
  }
})

export const routingFailures = {
  RoutingRuleNotFound: (error: Domain.RoutingRuleNotFound) =>
    failWith(RoutingErrors.RoutingRuleNotFound, { message: `No such routing rule: '${echoed(error.id)}'`, param: "id" }),
  RoutingRuleInvalid: (error: Domain.RoutingRuleInvalid) =>
    failWith(RoutingErrors.RoutingRuleInvalid, { message: `Invalid ${error.param}: ${error.reason}.`, param: error.param })
}
