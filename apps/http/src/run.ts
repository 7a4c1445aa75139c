import { runFromEnvironment } from "@orchestrator/application"
import { HttpShell } from "./main.js"

/**
 * The HTTP shell on its own, configured from the environment (the README's configuration table):
 * `pnpm --filter @orchestrator/http start`, or `node --import tsx apps/http/src/run.ts`.
 */
runFromEnvironment(HttpShell, { http: true })
