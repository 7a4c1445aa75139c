import { Cause, Effect, Layer, Schedule } from "effect"
import { type Job, Jobs } from "../../ports/Jobs.js"
import { markJobPass } from "../observability/ServiceMetrics.js"
import { traced } from "../observability/Traced.js"

/**
 * One pass as the root of a trace of its own, `job <name>`, saying how many items it handled
 * (`job.items`): the spans of what it did (SQL, PSP calls, webhook attempts) are its children.
 */
export const tracedPass = (job: Job) =>
  job.run.pipe(
    Effect.tap((count) => Effect.annotateCurrentSpan("job.items", count)),
    traced(`job ${job.name}`, { root: true, attributes: { "job.name": job.name } })
  )

/**
 * Runs a job forever at its spacing. A failing pass is logged and the loop goes on: the work it left
 * is still in storage, and the next pass picks it up.
 */
const runForever = (job: Job) =>
  tracedPass(job).pipe(
    Effect.tap((count) => Effect.zipRight(markJobPass(job.name, "ok", count), count > 0 ? Effect.logInfo(`${job.name}: ${count}`) : Effect.void)),
    Effect.catchAllCause((cause) => Effect.zipRight(markJobPass(job.name, "failed", 0), Effect.logError(`${job.name} failed`, Cause.pretty(cause)))),
    Effect.repeat(Schedule.spaced(job.every)),
    Effect.annotateLogs("job", job.name)
  )

/**
 * Every job of the core (and the host's `ExtraJobs`), each in its own fiber for as long as the layer
 * lives. Jobs claim their rows with leases (`FOR UPDATE SKIP LOCKED` in SQL), so any number of
 * processes can run them side by side. The worker shell is this layer; a host embedding the core
 * adds it where its background work runs.
 */
export const BackgroundJobs = Layer.scopedDiscard(
  Effect.flatMap(Jobs, (jobs) => Effect.forEach(jobs, (job) => Effect.forkScoped(runForever(job)), { discard: true }))
)
