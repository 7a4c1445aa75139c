/** The front door of @orchestrator/application: everything another package may use. */
export { applicationLayer, memoryStorage, sqlStorage } from "./Application.js"
