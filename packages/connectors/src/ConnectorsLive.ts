import { Connectors } from "@orchestrator/core/providers/Connectors"
import { Effect, Layer } from "effect"
import { sandboxDefinition } from "./sandbox/SandboxConnector.js"
import { SandboxLedger } from "./sandbox/SandboxLedger.js"

/**
 * The connection types this build knows, each with its connector. Adding a PSP adds a line here.
 * The sandbox keeps its books in the `SandboxLedger` provided beside it.
 */
export const ConnectorsLive = Layer.unwrapEffect(
  Effect.map(SandboxLedger, (ledger) =>
    Connectors.fromDefinitions({
      sandbox: sandboxDefinition(ledger)
    }))
)
