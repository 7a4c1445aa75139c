import { Context, Effect } from "effect"

/**
 * The unit of work: every repository call made inside `run` commits or rolls back together.
 * This is how a state change and its event land in the same transaction.
 */
export class Transactions extends Context.Tag("core/Transactions")<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
