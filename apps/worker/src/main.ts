import { BackgroundJobs } from "@orchestrator/core"

/**
 * The worker shell: every job of the core and its adapters, each in its own fiber. Jobs claim their
 * rows in the database with leases, so any number of worker processes can run side by side.
 * `orchestrator worker` and `orchestrator start` launch it over the application.
 */
export const WorkerMain = BackgroundJobs
