import { Context, type Effect, type Option } from "effect"

/** Whether this process can serve: `Some(reason)` when it cannot (storage unreachable, schema behind). */
export class Readiness extends Context.Tag("core/Readiness")<Readiness, {
  readonly problem: Effect.Effect<Option.Option<string>>
}>() {}
