import { Data } from "effect"

export class RoutingRuleNotFound extends Data.TaggedError("RoutingRuleNotFound")<{ readonly id: string }> {}

/** A rule that cannot be what it says (unknown condition, empty list, gte above lte, unknown provider). */
export class RoutingRuleInvalid extends Data.TaggedError("RoutingRuleInvalid")<{
  readonly param: string
  readonly reason: string
}> {}
