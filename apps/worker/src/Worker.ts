import { type Job, Jobs } from "@orchestrator/core/ports/Jobs"
import { Cause, Effect, Layer, Schedule } from "effect"

/**
 * Runs a job forever at its spacing. A failing pass is logged and the loop goes on: the work it left
 * is still in the database, and the next pass picks it up.
 */
const runForever = (job: Job) =>
  job.run.pipe(
    Effect.tap((count) => count > 0 ? Effect.logInfo(`${job.name}: ${count}`) : Effect.void),
    Effect.catchAllCause((cause) => Effect.logError(`${job.name} failed`, Cause.pretty(cause))),
    Effect.repeat(Schedule.spaced(job.every)),
    Effect.annotateLogs("job", job.name)
  )

/**
 * The background worker: every job the capabilities declare, each in its own fiber. Every job claims
 * its rows in the database with leases (`FOR UPDATE SKIP LOCKED`), so any number of worker processes
 * can run side by side.
 */
export const WorkerLive = Layer.scopedDiscard(
  Effect.flatMap(Jobs, (jobs) => Effect.forEach(jobs, (job) => Effect.forkScoped(runForever(job)), { discard: true }))
)
