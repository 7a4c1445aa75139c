import { Context, type Effect, type Option } from "effect"

/**
 * Where security codes wait when several processes serve the vault (Redis): each already sealed by
 * the vault under its keys, under a name holding only the card's id, gone at its time or on the first
 * `take`. Without it, the vault holds them in its own process's memory.
 */
export class SharedCvcs extends Context.Tag("vault/SharedCvcs")<SharedCvcs, {
  /** Holds `sealed` for `ttlMillis`; `false` when the store could not take it (the caller keeps it itself). */
  readonly put: (cardId: string, sealed: string, ttlMillis: number) => Effect.Effect<boolean>
  /** The sealed code, removed in the same step (GETDEL): no second reader ever gets it. */
  readonly take: (cardId: string) => Effect.Effect<Option.Option<string>>
  readonly destroy: (cardId: string) => Effect.Effect<void>
}>() {}
