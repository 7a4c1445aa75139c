import { Layer } from "effect"
import { CheckoutSessionsRepository } from "../checkout/CheckoutSessionsRepository.js"
import type { StoragePorts } from "../CorePorts.js"
import { EventsRepository } from "../events/EventsRepository.js"
import { IdempotencyKeysRepository } from "../idempotency/IdempotencyKeysRepository.js"
import { InsightsRepository } from "../insights/InsightsRepository.js"
import { PaymentsRepository } from "../payments/PaymentsRepository.js"
import { Transactions } from "../ports/Transactions.js"
import { ProviderConnectionsRepository } from "../providers/ProviderConnectionsRepository.js"
import { ProviderEventsRepository } from "../providers/ProviderEventsRepository.js"
import { RefundsRepository } from "../refunds/RefundsRepository.js"
import { RoutingRulesRepository } from "../routing/RoutingRulesRepository.js"
import { CustomersRepository } from "../subscriptions/CustomersRepository.js"
import { InvoicesRepository } from "../subscriptions/InvoicesRepository.js"
import { PlansRepository } from "../subscriptions/PlansRepository.js"
import { SubscriptionsRepository } from "../subscriptions/SubscriptionsRepository.js"
import { TestClocksRepository } from "../subscriptions/TestClocksRepository.js"
import { ApiKeysRepository } from "../tenancy/ApiKeysRepository.js"
import { OrganizationsRepository } from "../tenancy/OrganizationsRepository.js"
import { WebhookDeliveriesRepository } from "../webhooks/WebhookDeliveriesRepository.js"
import { WebhookEndpointsRepository } from "../webhooks/WebhookEndpointsRepository.js"

export type { StoragePorts }
import { layerMemoryStore } from "./MemoryStore.js"

/** Every storage port in memory, sharing one store so `Transactions` can roll them back together. */
export const StorageMemory: Layer.Layer<StoragePorts> = Layer.mergeAll(
  Transactions.layerMemory,
  OrganizationsRepository.layerMemory,
  ApiKeysRepository.layerMemory,
  ProviderConnectionsRepository.layerMemory,
  PaymentsRepository.layerMemory,
  RefundsRepository.layerMemory,
  EventsRepository.layerMemory,
  IdempotencyKeysRepository.layerMemory,
  WebhookEndpointsRepository.layerMemory,
  WebhookDeliveriesRepository.layerMemory,
  RoutingRulesRepository.layerMemory,
  ProviderEventsRepository.layerMemory,
  CustomersRepository.layerMemory,
  PlansRepository.layerMemory,
  SubscriptionsRepository.layerMemory,
  InvoicesRepository.layerMemory,
  TestClocksRepository.layerMemory,
  InsightsRepository.layerMemory,
  CheckoutSessionsRepository.layerMemory
).pipe(Layer.provide(layerMemoryStore))
