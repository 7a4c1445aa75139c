/** The connectors on Node: PSP calls through the egress client, and the sandbox's background work. */
export { ConnectorsNode } from "./ConnectorsNode.js"
export { PspHttpNode } from "./PspHttpNode.js"
export { SandboxJobs } from "./SandboxJobs.js"
