import { Layer } from "effect"
import type { StoragePorts } from "./CorePorts.js"

export type { StoragePorts }
import { MemoryApiKeysRepository } from "../memory/MemoryApiKeysRepository.js"
import { MemoryCheckoutSessionsRepository } from "../memory/MemoryCheckoutSessionsRepository.js"
import { MemoryCustomersRepository } from "../memory/MemoryCustomersRepository.js"
import { MemoryDisputesRepository } from "../memory/MemoryDisputesRepository.js"
import { MemoryEventsRepository } from "../memory/MemoryEventsRepository.js"
import { MemoryFileStore } from "../memory/MemoryFileStore.js"
import { MemoryIdempotencyKeysRepository } from "../memory/MemoryIdempotencyKeysRepository.js"
import { MemoryInsightsRepository } from "../memory/MemoryInsightsRepository.js"
import { MemoryInvoicesRepository } from "../memory/MemoryInvoicesRepository.js"
import { MemoryOrganizationsRepository } from "../memory/MemoryOrganizationsRepository.js"
import { MemoryPaymentsRepository } from "../memory/MemoryPaymentsRepository.js"
import { MemoryPlansRepository } from "../memory/MemoryPlansRepository.js"
import { MemoryProviderConnectionsRepository } from "../memory/MemoryProviderConnectionsRepository.js"
import { MemoryProviderEventsRepository } from "../memory/MemoryProviderEventsRepository.js"
import { MemoryRefundsRepository } from "../memory/MemoryRefundsRepository.js"
import { MemoryRoutingRulesRepository } from "../memory/MemoryRoutingRulesRepository.js"
import { layerMemoryStore } from "../memory/MemoryStore.js"
import { MemorySubscriptionsRepository } from "../memory/MemorySubscriptionsRepository.js"
import { MemoryTestClocksRepository } from "../memory/MemoryTestClocksRepository.js"
import { MemoryTransactions } from "../memory/MemoryTransactions.js"
import { MemoryWebhookDeliveriesRepository } from "../memory/MemoryWebhookDeliveriesRepository.js"
import { MemoryWebhookEndpointsRepository } from "../memory/MemoryWebhookEndpointsRepository.js"

/** Every storage port in memory, sharing one store so `Transactions` can roll them back together. */
export const StorageMemory: Layer.Layer<StoragePorts> = Layer.mergeAll(
  MemoryTransactions,
  MemoryOrganizationsRepository,
  MemoryApiKeysRepository,
  MemoryProviderConnectionsRepository,
  MemoryPaymentsRepository,
  MemoryRefundsRepository,
  MemoryDisputesRepository,
  MemoryFileStore,
  MemoryEventsRepository,
  MemoryIdempotencyKeysRepository,
  MemoryWebhookEndpointsRepository,
  MemoryWebhookDeliveriesRepository,
  MemoryRoutingRulesRepository,
  MemoryProviderEventsRepository,
  MemoryCustomersRepository,
  MemoryPlansRepository,
  MemorySubscriptionsRepository,
  MemoryInvoicesRepository,
  MemoryTestClocksRepository,
  MemoryInsightsRepository,
  MemoryCheckoutSessionsRepository
).pipe(Layer.provide(layerMemoryStore))
