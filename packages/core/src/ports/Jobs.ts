import { Context, type Duration, type Effect } from "effect"

/**
 * A unit of background work: one pass finds what is due, handles it, and says how much it handled.
 * Each capability declares its jobs (and their policy) in the core; the worker only runs them.
 */
export interface Job {
  readonly name: string
  readonly every: Duration.DurationInput
  readonly run: Effect.Effect<number>
}

/** Every job of the service, assembled where the application is composed. */
export class Jobs extends Context.Tag("core/Jobs")<Jobs, ReadonlyArray<Job>>() {}

/** Jobs of the adapters (the sandbox PSP's own work), which the composition root adds to the core's. */
export class ExtraJobs extends Context.Reference<ExtraJobs>()("core/ExtraJobs", {
  defaultValue: (): ReadonlyArray<Job> => []
}) {}
