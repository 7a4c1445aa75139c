import { Context, Effect, Option } from "effect"

/**
 * The Idempotency-Key a request runs under, as the operation sees it. An operation that creates an
 * object either calls `attach` in the transaction that creates it, so key and object commit together,
 * or (a request made with `reserveId`) gives the object the `reserved` id the key has named since it
 * was taken, so the object needs no second write and a second run could only collide on its id. When
 * an earlier run under the same key was cut short, `recovered` names the object it created (with a
 * reserved id: may have created), and the operation finishes that object instead of starting over.
 * Without a key, nothing is recovered or reserved and `attach` does nothing.
 */
export class IdempotencyScope extends Context.Reference<IdempotencyScope>()("core/IdempotencyScope", {
  defaultValue: (): {
    readonly recovered: Option.Option<string>
    readonly reserved: Option.Option<string>
    readonly attach: (resourceId: string) => Effect.Effect<void>
  } => ({ recovered: Option.none(), reserved: Option.none(), attach: () => Effect.void })
}) {}
