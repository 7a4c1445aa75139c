import { Context, type Effect, type Option } from "effect"

/** Whether this process can serve, and whether a failure was its storage being away. */
export class Readiness extends Context.Tag("core/Readiness")<Readiness, {
  /** `Some(reason)` when it cannot serve (storage unreachable, schema behind). */
  readonly problem: Effect.Effect<Option.Option<string>>
  /**
   * Whether a failure is the storage being away (a restart, a failover) rather than a bug: what was
   * asked did nothing durable, so a shell may tell its client to retry. The storage adapter knows
   * what that looks like (PostgreSQL's codes, the driver's messages); no shell needs to.
   */
  readonly isUnavailable: (failure: unknown) => boolean
}>() {}
