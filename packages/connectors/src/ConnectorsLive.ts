import { PublicBaseUrl } from "@orchestrator/core/payments/AttemptPolicy"
import { Connectors } from "@orchestrator/core/providers/PaymentConnector"
import { Effect, Layer } from "effect"
import { makeSandboxConnector } from "./sandbox/SandboxConnector.js"
import { SandboxLedger } from "./sandbox/SandboxLedger.js"

/** Connector types this build knows, by the `type` of a provider connection. */
export const CONNECTOR_TYPES = ["sandbox"] as const

/** The registry of connector implementations behind the core's `Connectors` port. */
export const ConnectorsLive = Layer.effect(
  Connectors,
  Effect.gen(function*() {
    const ledger = yield* SandboxLedger
    const baseUrl = yield* PublicBaseUrl
    return {
      forConnection: (connection) => {
        switch (connection.type) {
          case "sandbox":
            return makeSandboxConnector(connection, ledger, baseUrl)
          default:
            throw new Error(`no connector for provider type '${connection.type}'`)
        }
      }
    }
  })
)
