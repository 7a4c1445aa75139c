import { Context, Effect, Option } from "effect"

/**
 * The Idempotency-Key a request runs under, as the operation sees it. An operation that creates an
 * object calls `attach` in the transaction that creates it, so key and object commit together; when
 * an earlier run under the same key was cut short, `recovered` names the object it created, and the
 * operation finishes that object instead of starting over. Without a key, nothing is recovered and
 * `attach` does nothing.
 */
export class IdempotencyScope extends Context.Reference<IdempotencyScope>()("core/IdempotencyScope", {
  defaultValue: (): {
    readonly recovered: Option.Option<string>
    readonly attach: (resourceId: string) => Effect.Effect<void>
  } => ({ recovered: Option.none(), attach: () => Effect.void })
}) {}
