/**
 * The front door of the core: what a host composes (`CoreLive` over `CorePorts`, or `CoreMemory`),
 * the services it calls, the ports it implements, and the records and errors they speak in.
 * Deeper modules stay importable by path (`@orchestrator/core/payments/Payment`) for adapters.
 */

// Composition
export { BackgroundJobs } from "./BackgroundJobs.js"
export { CoreLive, CoreMemory, type CoreServices } from "./CoreLive.js"
export type { CorePorts, StoragePorts } from "./CorePorts.js"
export { StorageMemory } from "./memory/StorageMemory.js"

// Ports a host provides
export { RateLimiter } from "./limits/RateLimiter.js"
export { ExtraJobs, type Job, Jobs } from "./ports/Jobs.js"
export { PublicUrls } from "./ports/PublicUrls.js"
export { Readiness } from "./ports/Readiness.js"
export { Transactions } from "./ports/Transactions.js"
export { ConnectorCatalog, Connectors, UnknownConnectorType } from "./providers/Connectors.js"
export * from "./providers/PaymentConnector.js"
export { KeyMaterial } from "./tenancy/KeyMaterial.js"
export { type WebhookRequest, type WebhookResponse, WebhookSender } from "./webhooks/WebhookSender.js"

// Services a host calls
export { CheckoutSessions } from "./checkout/CheckoutSessions.js"
export { Events } from "./events/Events.js"
export { IdempotentRequests } from "./idempotency/IdempotentRequests.js"
export { Payments } from "./payments/Payments.js"
export { ProviderConnections } from "./providers/ProviderConnections.js"
export { ProviderWebhooks } from "./providers/ProviderWebhooks.js"
export { Refunds } from "./refunds/Refunds.js"
export { RoutingRules } from "./routing/RoutingRules.js"
export { Customers } from "./subscriptions/Customers.js"
export { Plans } from "./subscriptions/Plans.js"
export { Subscriptions } from "./subscriptions/Subscriptions.js"
export { TestClocks } from "./subscriptions/TestClocks.js"
export { Authentication } from "./tenancy/Authentication.js"
export { Organizations } from "./tenancy/Organizations.js"
export { WebhookEndpoints } from "./webhooks/WebhookEndpoints.js"

// Records and errors
export * from "./checkout/CheckoutErrors.js"
export type { Tenant } from "./domain/Tenant.js"
export { API_VERSION } from "./events/Event.js"
export { CancelPayment, CapturePayment, CreatePayment, Payment } from "./payments/Payment.js"
export * from "./payments/PaymentErrors.js"
export { CreateRefund, Refund } from "./refunds/Refund.js"
export * from "./refunds/RefundErrors.js"
export * from "./webhooks/WebhookErrors.js"
