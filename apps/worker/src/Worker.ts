import { Cause, Duration, Effect, Layer, Schedule } from "effect"
import { followUpPayments, purgeIdempotencyKeys, reconcilePayments, reconcileRefunds } from "./Jobs.js"

/**
 * Runs a job pass forever at a fixed spacing. A failing pass is logged and the loop goes on:
 * the work it left is still in the database and the next pass picks it up.
 */
const every = <R>(name: string, spacing: Duration.DurationInput, pass: Effect.Effect<number, never, R>) =>
  pass.pipe(
    Effect.tap((count) => count > 0 ? Effect.logInfo(`${name}: ${count}`) : Effect.void),
    Effect.catchAllCause((cause) => Effect.logError(`${name} failed`, Cause.pretty(cause))),
    Effect.repeat(Schedule.spaced(spacing)),
    Effect.annotateLogs("job", name)
  )

/**
 * The background worker. Every job claims its rows in the database (leases, `FOR UPDATE SKIP LOCKED`),
 * so any number of worker processes can run side by side.
 */
export const WorkerLive = Layer.scopedDiscard(
  Effect.all([
    every("reconcile-payments", "5 seconds", reconcilePayments),
    every("reconcile-refunds", "5 seconds", reconcileRefunds),
    every("follow-up-payments", "30 seconds", followUpPayments),
    every("purge-idempotency-keys", "1 hour", purgeIdempotencyKeys)
  ], { concurrency: "unbounded", discard: true }).pipe(Effect.forkScoped)
)
