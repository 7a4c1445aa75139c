import { runFromEnvironment } from "@orchestrator/application"
import { WorkerMain } from "./main.js"

/**
 * The worker on its own, configured from the environment (the README's configuration table):
 * `pnpm --filter @orchestrator/worker start`, or `node --import tsx apps/worker/src/run.ts`.
 */
runFromEnvironment(() => WorkerMain, { http: false })
