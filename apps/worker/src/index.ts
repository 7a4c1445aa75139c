/** The front door of @orchestrator/worker: everything another package may use. */
export { WorkerMain } from "./main.js"
