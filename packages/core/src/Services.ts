import { Layer } from "effect"
import { EventLog } from "./events/EventLog.js"
import { EventsRepository } from "./events/EventsRepository.js"
import { IdempotencyKeysRepository } from "./idempotency/IdempotencyKeysRepository.js"
import { IdempotentRequests } from "./idempotency/IdempotentRequests.js"
import { Payments } from "./payments/Payments.js"
import { PaymentsRepository } from "./payments/PaymentsRepository.js"
import { ProviderConnectionsRepository } from "./providers/ProviderConnectionsRepository.js"
import { ProviderResolution } from "./providers/ProviderResolution.js"
import { Refunds } from "./refunds/Refunds.js"
import { RefundsRepository } from "./refunds/RefundsRepository.js"
import { IdGenerator } from "./ports/IdGenerator.js"
import { layerMemoryStore } from "./memory/MemoryStore.js"
import { Transactions } from "./ports/Transactions.js"
import { ApiKeysRepository } from "./tenancy/ApiKeysRepository.js"
import { Authentication } from "./tenancy/Authentication.js"
import { Organizations } from "./tenancy/Organizations.js"
import { OrganizationsRepository } from "./tenancy/OrganizationsRepository.js"

/**
 * The application services over their ports. Shells provide the ports (SQL storage, connectors,
 * key material, public URL); tests provide `PortsMemory`.
 */
export const ServicesLayer = Layer.mergeAll(
  Payments.layer,
  Refunds.layer,
  IdempotentRequests.layer,
  Authentication.layer,
  Organizations.layer
).pipe(
  Layer.provideMerge(Layer.mergeAll(EventLog.layer, ProviderResolution.layer)),
  Layer.provideMerge(IdGenerator.layer)
)

/** Every storage port in memory, sharing one store so `Transactions` can roll them back together. */
export const StorageMemory = Layer.mergeAll(
  Transactions.layerMemory,
  OrganizationsRepository.layerMemory,
  ApiKeysRepository.layerMemory,
  ProviderConnectionsRepository.layerMemory,
  PaymentsRepository.layerMemory,
  RefundsRepository.layerMemory,
  EventsRepository.layerMemory,
  IdempotencyKeysRepository.layerMemory
).pipe(Layer.provideMerge(layerMemoryStore))
