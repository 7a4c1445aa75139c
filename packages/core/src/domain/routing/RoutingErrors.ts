import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

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

/** The `provider` asked for cannot take this payment: unknown, not active, or not for this currency/method. */
export class ProviderNotUsable extends ServiceFailure("ProviderNotUsable", {
  kind: "unprocessable",
  codes: ["provider_not_usable"],
  description: "The provider asked for is unknown, not active, or cannot take this currency or method"
})<{
  readonly provider: string
  readonly reason: string
}> {
  get answer(): FailureAnswer {
    return { message: `Cannot use provider '${echoed(this.provider)}': ${this.reason}.`, param: "provider" }
  }
}

/** No provider was asked for and none of the organization's can take the payment. */
export class NoProviderAvailable extends ServiceFailure("NoProviderAvailable", {
  kind: "unprocessable",
  codes: ["no_provider_available"],
  description: "No provider of the organization can take this payment"
})<{ readonly reason: string }> {
  get answer(): FailureAnswer {
    return { message: `No provider can take this payment: ${this.reason}.` }
  }
}
