import { Context, Effect, Option } from "effect"
import type { KeyClaim, KeyCompletion } from "./KeyRides.js"

/** What an operation sees of the Idempotency-Key it runs under. */
export interface IdempotencyScopeShape {
  readonly recovered: Option.Option<string>
  readonly reserved: Option.Option<string>
  readonly attach: (resourceId: string) => Effect.Effect<void>
  /**
   * Runs the operation's first write of its object (`reserved` names it) with the key's insert, when
   * the key is not written yet (`KeyClaim`, see `KeyRides`): `write` answers `None` when it wrote
   * nothing because the key exists, and the operation then stops here (the request is judged again
   * as a retry). Without a pending claim, `write` gets `None` and must write.
   */
  readonly claimWith: <A>(write: (claim: Option.Option<KeyClaim>) => Effect.Effect<Option.Option<A>>) => Effect.Effect<A>
  /**
   * Runs a write whose record may be the operation's answer: `write` hands the record it is about to
   * write to `completion`, which (for a request whose answer rides along) gives the key's completion
   * for that write to carry. Where nothing rides, `completion` answers `None`.
   */
  readonly completeWith: <A>(
    write: (completion: (answer: A) => Effect.Effect<Option.Option<KeyCompletion>>) => Effect.Effect<Option.Option<A>>
  ) => Effect.Effect<Option.Option<A>>
}

/** No key: nothing recovered, reserved or attached, and writes carry nothing for a key. */
export const withoutKey: IdempotencyScopeShape = {
  recovered: Option.none(),
  reserved: Option.none(),
  attach: () => Effect.void,
  claimWith: (write) =>
    Effect.flatMap(
      write(Option.none()),
      Option.match({
        onNone: () => Effect.dieMessage("a write without a key to claim wrote nothing"),
        onSome: Effect.succeed
      })
    ),
  completeWith: (write) => write(() => Effect.succeedNone)
}

/**
 * The Idempotency-Key a request runs under, as the operation sees it. An operation that creates an
 * object either calls `attach` in the transaction that creates it, so key and object commit together,
 * or (a request made with `reserveId`) gives the object the `reserved` id the key has named since it
 * was taken, so the object needs no second write and a second run could only collide on its id. When
 * an earlier run under the same key was cut short, `recovered` names the object it created (with a
 * reserved id: may have created), and the operation finishes that object instead of starting over.
 * Without a key, nothing is recovered or reserved and `attach` does nothing. A request may also have
 * its key written by the operation's own writes (`claimWith`, `completeWith`): see `KeyRides`.
 */
export class IdempotencyScope extends Context.Reference<IdempotencyScope>()("core/IdempotencyScope", {
  defaultValue: (): IdempotencyScopeShape => withoutKey
}) {}
