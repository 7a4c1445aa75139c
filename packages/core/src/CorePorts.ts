import type { CheckoutSessionsRepository } from "./checkout/CheckoutSessionsRepository.js"
import type { EventsRepository } from "./events/EventsRepository.js"
import type { IdempotencyKeysRepository } from "./idempotency/IdempotencyKeysRepository.js"
import type { InsightsRepository } from "./insights/InsightsRepository.js"
import type { RateLimiter } from "./limits/RateLimiter.js"
import type { PaymentsRepository } from "./payments/PaymentsRepository.js"
import type { PublicUrls } from "./ports/PublicUrls.js"
import type { Transactions } from "./ports/Transactions.js"
import type { ConnectorCatalog } from "./providers/Connectors.js"
import type { ProviderConnectionsRepository } from "./providers/ProviderConnectionsRepository.js"
import type { ProviderEventsRepository } from "./providers/ProviderEventsRepository.js"
import type { RefundsRepository } from "./refunds/RefundsRepository.js"
import type { RoutingRulesRepository } from "./routing/RoutingRulesRepository.js"
import type { CustomersRepository } from "./subscriptions/CustomersRepository.js"
import type { InvoicesRepository } from "./subscriptions/InvoicesRepository.js"
import type { PlansRepository } from "./subscriptions/PlansRepository.js"
import type { SubscriptionsRepository } from "./subscriptions/SubscriptionsRepository.js"
import type { TestClocksRepository } from "./subscriptions/TestClocksRepository.js"
import type { ApiKeysRepository } from "./tenancy/ApiKeysRepository.js"
import type { KeyMaterial } from "./tenancy/KeyMaterial.js"
import type { OrganizationsRepository } from "./tenancy/OrganizationsRepository.js"
import type { WebhookDeliveriesRepository } from "./webhooks/WebhookDeliveriesRepository.js"
import type { WebhookEndpointsRepository } from "./webhooks/WebhookEndpointsRepository.js"
import type { WebhookSender } from "./webhooks/WebhookSender.js"

/**
 * Every storage port of the core: one repository per record kind and the transactions that span
 * them. `@orchestrator/sql` implements them over PostgreSQL or PGlite; `StorageMemory` in memory.
 */
export type StoragePorts =
  | Transactions
  | OrganizationsRepository
  | ApiKeysRepository
  | ProviderConnectionsRepository
  | PaymentsRepository
  | RefundsRepository
  | EventsRepository
  | IdempotencyKeysRepository
  | WebhookEndpointsRepository
  | WebhookDeliveriesRepository
  | RoutingRulesRepository
  | ProviderEventsRepository
  | CustomersRepository
  | PlansRepository
  | SubscriptionsRepository
  | InvoicesRepository
  | TestClocksRepository
  | InsightsRepository
  | CheckoutSessionsRepository

/**
 * Everything a host provides to run the core (`CoreLive`): where records live, which PSPs it can
 * reach, how webhooks leave, the keys derived from its master secret, where request rates are
 * counted, and the public addresses of the routes it serves. Optional settings (`PaymentPolicy`,
 * `RateLimitDefaults`, `ExtraJobs`, …) have defaults and may be provided too.
 */
export type CorePorts =
  | StoragePorts
  | ConnectorCatalog
  | WebhookSender
  | KeyMaterial
  | RateLimiter
  | PublicUrls
