/**
 * The front door of the connectors, free of any platform: the catalog a host gives the core
 * (`ConnectorCatalogLive`, over a `PspHttp` transport and the sandbox's `SandboxLedger`), and the
 * sandbox PSP's books (in memory, or `SandboxLedgerSql` beside the SQL storage). On Node,
 * `@orchestrator/connectors/node` has all of it wired (`ConnectorsNode`).
 */
export { makeAdyenConnector } from "./adyen/AdyenConnector.js"
export { AdyenSettings } from "./adyen/AdyenSettings.js"
export { ConnectorCatalogLive } from "./ConnectorCatalogLive.js"
export { SandboxLedger } from "./sandbox/SandboxLedger.js"
export { SandboxLedgerSql } from "./sandbox/SandboxLedgerSql.js"
export { SandboxPagesLive } from "./sandbox/SandboxPages.js"
export { makeStripeConnector } from "./stripe/StripeConnector.js"
export { StripeSettings } from "./stripe/StripeSettings.js"
export { PspHttp } from "./transport/PspHttp.js"
