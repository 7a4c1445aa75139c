/** The front door of @orchestrator/egress: everything another package may use. */
export { type EgressAnswer, makeEgressClient, type Resolve } from "./EgressClient.js"
