import type { PrivateAddresses } from "@orchestrator/core"
import { Layer } from "effect"
import { ConnectorCatalogLive } from "../ConnectorCatalogLive.js"
import { PspHttpNode } from "./PspHttpNode.js"
import { SandboxJobs } from "./SandboxJobs.js"

/**
 * Every connector of this build on Node, with the sandbox's own background work: PSP calls leave
 * through the egress client under `privateAddresses` (whether test-mode connections may reach
 * private addresses; live ones never do).
 */
export const ConnectorsNode = (options: { readonly privateAddresses: PrivateAddresses }) =>
  Layer.merge(ConnectorCatalogLive.pipe(Layer.provide(PspHttpNode(options))), SandboxJobs)
