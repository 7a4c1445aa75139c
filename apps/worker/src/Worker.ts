import { BackgroundJobs } from "@orchestrator/core/BackgroundJobs"

/**
 * The background worker: every job the capabilities declare, each in its own fiber. Every job claims
 * its rows in the database with leases, so any number of worker processes can run side by side.
 */
export const WorkerLive = BackgroundJobs
