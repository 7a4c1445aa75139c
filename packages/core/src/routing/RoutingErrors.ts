import { type FailureAnswer, NotFound, ServiceFailure } from "../domain/Failure.js"

export class RoutingRuleNotFound extends NotFound("RoutingRuleNotFound", "routing rule") {}

/** A rule that cannot be what it says (unknown condition, empty list, gte above lte, unknown provider). */
export class RoutingRuleInvalid extends ServiceFailure("RoutingRuleInvalid", {
  kind: "unprocessable",
  codes: ["routing_rule_invalid"],
  description: "An unknown condition, an empty list, gte above lte, a non-integer bound, or an unknown provider"
})<{
  readonly param: string
  readonly reason: string
}> {
  get answer(): FailureAnswer {
    return { message: `Invalid ${this.param}: ${this.reason}.`, param: this.param }
  }
}
