import { ConnectorCatalog } from "@orchestrator/core"
import { Effect, Layer } from "effect"
import { adyenDefinition } from "./adyen/AdyenConnector.js"
import { CHECKOUT_COM_TYPE, checkoutComDefinition } from "./checkoutcom/Connector.js"
import { mollieDefinition } from "./mollie/Connector.js"
import { paypalDefinition } from "./paypal/Connector.js"
import { sandboxDefinition } from "./sandbox/SandboxConnector.js"
import { SandboxLedger } from "./sandbox/SandboxLedger.js"
import { stripeDefinition } from "./stripe/StripeConnector.js"
import { PspHttp } from "./transport/PspHttp.js"

/**
 * The connection types this build knows, each with its connector. Adding a PSP adds a line here.
 * The sandbox keeps its books in the `SandboxLedger` provided beside it; the PSPs on the network are
 * reached through `PspHttp`.
 */
export const ConnectorCatalogLive = Layer.effect(
  ConnectorCatalog,
  Effect.gen(function*() {
    const ledger = yield* SandboxLedger
    const http = yield* PspHttp
    return {
      sandbox: sandboxDefinition(ledger),
      stripe: stripeDefinition(http),
      adyen: adyenDefinition(http),
      [CHECKOUT_COM_TYPE]: checkoutComDefinition(http),
      mollie: mollieDefinition(http),
      paypal: paypalDefinition(http)
    }
  })
)
