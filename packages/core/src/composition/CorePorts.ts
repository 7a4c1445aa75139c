import type { ConnectorCatalog } from "../features/connections/Connectors.js"
import type { ApiKeysRepository } from "../ports/ApiKeysRepository.js"
import type { CheckoutSessionsRepository } from "../ports/CheckoutSessionsRepository.js"
import type { CustomersRepository } from "../ports/CustomersRepository.js"
import type { DisputesRepository } from "../ports/DisputesRepository.js"
import type { EventsRepository } from "../ports/EventsRepository.js"
import type { FileStore } from "../ports/FileStore.js"
import type { IdempotencyKeysRepository } from "../ports/IdempotencyKeysRepository.js"
import type { InsightsRepository } from "../ports/InsightsRepository.js"
import type { InvoicesRepository } from "../ports/InvoicesRepository.js"
import type { KeyMaterial } from "../ports/KeyMaterial.js"
import type { OrganizationsRepository } from "../ports/OrganizationsRepository.js"
import type { PaymentsRepository } from "../ports/PaymentsRepository.js"
import type { PlansRepository } from "../ports/PlansRepository.js"
import type { ProviderConnectionsRepository } from "../ports/ProviderConnectionsRepository.js"
import type { ProviderEventsRepository } from "../ports/ProviderEventsRepository.js"
import type { PublicUrls } from "../ports/PublicUrls.js"
import type { RateLimiter } from "../ports/RateLimiter.js"
import type { RefundsRepository } from "../ports/RefundsRepository.js"
import type { RoutingRulesRepository } from "../ports/RoutingRulesRepository.js"
import type { SubscriptionsRepository } from "../ports/SubscriptionsRepository.js"
import type { TestClocksRepository } from "../ports/TestClocksRepository.js"
import type { Transactions } from "../ports/Transactions.js"
import type { WebhookDeliveriesRepository } from "../ports/WebhookDeliveriesRepository.js"
import type { WebhookEndpointsRepository } from "../ports/WebhookEndpointsRepository.js"
import type { WebhookSender } from "../ports/WebhookSender.js"

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
  | DisputesRepository
  | FileStore
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
