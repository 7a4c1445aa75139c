import { BackgroundJobs } from "@orchestrator/core"

/**
 * The worker shell: every job of the core and its adapters, each in its own fiber. Jobs claim their
 * rows in the database with leases, so any number of worker processes can run side by side.
 * `run.ts` runs it alone; `orchestrator worker` and `orchestrator start` run it too.
 */
export const WorkerMain = BackgroundJobs
