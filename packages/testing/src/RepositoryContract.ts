import { layer } from "@effect/vitest"
import type { StoragePorts } from "@orchestrator/core"
import type { Layer } from "effect"
import { billingRepositoriesContract } from "./contracts/BillingRepositoriesContract.js"
import { causingRequestContract } from "./contracts/CausingRequestContract.js"
import { disputesRepositoryContract } from "./contracts/DisputesRepositoryContract.js"
import { eventsRepositoryContract } from "./contracts/EventsRepositoryContract.js"
import { fairClaimsContract } from "./contracts/FairClaimsContract.js"
import { fileStoreContract } from "./contracts/FileStoreContract.js"
import { idempotencyKeysRepositoryContract } from "./contracts/IdempotencyKeysRepositoryContract.js"
import { insightsRepositoryContract } from "./contracts/InsightsRepositoryContract.js"
import { keyRidesContract } from "./contracts/KeyRidesContract.js"
import { paymentsRepositoryContract } from "./contracts/PaymentsRepositoryContract.js"
import { providerConnectionsRepositoryContract } from "./contracts/ProviderConnectionsRepositoryContract.js"
import { refundsRepositoryContract } from "./contracts/RefundsRepositoryContract.js"
import { tenancyRepositoriesContract } from "./contracts/TenancyRepositoriesContract.js"
import { transactionsContract } from "./contracts/TransactionsContract.js"

/**
 * What every implementation of the storage ports must do, whatever it stores in: the in-memory layers,
 * PGlite and PostgreSQL all run this same suite, one contract file per repository (in `contracts/`).
 */
export const repositoryContract = <E>(name: string, storage: Layer.Layer<StoragePorts, E>) =>
  layer(storage, { excludeTestServices: true, timeout: "120 seconds" })(`storage contract on ${name}`, (it) => {
    paymentsRepositoryContract(it)
    transactionsContract(it)
    refundsRepositoryContract(it)
    disputesRepositoryContract(it)
    fileStoreContract(it)
    billingRepositoriesContract(it)
    idempotencyKeysRepositoryContract(it)
    keyRidesContract(it)
    eventsRepositoryContract(it)
    causingRequestContract(it)
    providerConnectionsRepositoryContract(it)
    tenancyRepositoriesContract(it)
    insightsRepositoryContract(it)
    // Last: its claims take up due rows the others left in the shared store.
    fairClaimsContract(it)
  })
