import type { SqlClient } from "@effect/sql"
import { publicRoutesAt } from "@orchestrator/api"
import { SandboxLedger, SandboxLedgerSql } from "@orchestrator/connectors"
import { ConnectorsNode } from "@orchestrator/connectors/node"
import {
  CoreLive,
  EgressSettings,
  ExtraJobs,
  FailedAuthenticationLimit,
  IdGenerator,
  type KeyMaterial,
  MemoryRateLimiter,
  type PrivateAddresses,
  PublicUrls,
  type Rate,
  RateLimitDefaults,
  RateLimiter,
  Readiness,
  RepositoriesWithRecentReads,
  StorageMemory,
  type StoragePorts,
  type WebhookSender
} from "@orchestrator/core"
import { StorageSql } from "@orchestrator/sql"
import { CardVaultLive, KeyProvider, keyRotationJob, localKeyProvider, type SharedCvcs, VaultStore, VaultStoreMemory, VaultStoreSql } from "@orchestrator/vault"
import { NodeWebhookSenderLive } from "@orchestrator/webhook-sender"
import { Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"

/** Where the data lives: the core's storage ports, the sandbox PSP's books and the card vault's tables, over one database. */
export const sqlStorage = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RepositoriesWithRecentReads.pipe(Layer.provideMerge(Layer.mergeAll(StorageSql, SandboxLedgerSql, VaultStoreSql)), Layer.provideMerge(database))

/** The same ports in memory, for tests that need no database. */
export const memoryStorage = Layer.mergeAll(
  StorageMemory,
  SandboxLedger.layerMemory,
  VaultStoreMemory,
  Layer.succeed(Readiness, { problem: Effect.succeed(Option.none()), isUnavailable: () => false })
)

/** What a storage provides: the core's ports, the sandbox's books, the vault's tables, and whether it is ready. */
export type Storage = StoragePorts | SandboxLedger | VaultStore | Readiness

/** The card vault's settings: its keys, and who may send raw card numbers. */
export interface VaultSettings {
  /** Where the KEKs are; without it, one key made for this process only (its cards unreadable after a restart). */
  readonly keys?: Layer.Layer<KeyProvider>
  /** The fingerprints' own key (`ORCHESTRATOR_VAULT_FINGERPRINT_KEY`); without it, one made for this process only. */
  readonly fingerprintKey?: Uint8Array
  /** Whether an organization may send raw card numbers to `POST /v1/payment_methods`; none may unless said. */
  readonly rawCardData?: (organizationId: string) => boolean
  readonly cvcTtlMillis?: number
  /** Where security codes wait when several processes share the cards (Redis); this process's memory unless said. */
  readonly sharedCvcs?: Layer.Layer<SharedCvcs>
}

const processOnlyKeys = Layer.sync(KeyProvider, () => localKeyProvider(new Map([[1, new Uint8Array(randomBytes(32))]]), "a key made for this process only"))

/** The vault over the storage's tables and its keys (which its rotation job uses too). */
const vaultLayer = (settings: VaultSettings = {}) =>
  CardVaultLive({
    rawCardData: settings.rawCardData ?? (() => false),
    cvcTtlMillis: settings.cvcTtlMillis,
    fingerprintKey: settings.fingerprintKey ?? new Uint8Array(randomBytes(32))
  }).pipe(
    Layer.provideMerge(Layer.mergeAll(settings.keys ?? processOnlyKeys, IdGenerator.layer, settings.sharedCvcs ?? Layer.empty))
  )

/** The adapters' jobs (the sandbox's) and the vault's key rotation, which the worker runs with the core's. */
const withVaultJobs = Layer.effect(
  ExtraJobs,
  Effect.gen(function*() {
    return [...(yield* ExtraJobs), keyRotationJob(yield* KeyProvider, yield* VaultStore)]
  })
)

/**
 * The composition root below the shells: the core over a storage, the connectors, the key material
 * and the HTTP shell's public addresses. The HTTP server, the worker, the command-line tool, the
 * tests and the bench all start from this one function.
 */
export const applicationLayer = <E1, E2>(options: {
  readonly storage: Layer.Layer<Storage, E1>
  readonly keys: Layer.Layer<KeyMaterial, E2>
  readonly publicUrl: string
  /** How webhooks leave: Node's HTTP client unless a test says otherwise. */
  readonly webhookSender?: Layer.Layer<WebhookSender>
  /**
   * Whether test-mode calls (webhook deliveries, PSP `base_url`s) may reach private, loopback and
   * link-local addresses (`ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES`); live ones never do. Denied unless
   * said: the command line passes the operator's choice, test servers with local fakes `allow`.
   */
  readonly privateAddresses?: PrivateAddresses
  /** Where request rates are counted: in this process unless shared (Redis). */
  readonly rateLimiter?: Layer.Layer<RateLimiter>
  /** Requests per second per key where an organization sets none. */
  readonly rateLimits?: { readonly live: number; readonly test: number }
  /** Failed authentications a client address may make (20 a minute in a burst of 20 unless set). */
  readonly failedAuthentications?: Rate
  readonly vault?: VaultSettings
  /** Where the vault's card form is served, apart from the API (`ORCHESTRATOR_VAULT_ORIGIN`); else beside it. */
  readonly vaultOrigin?: string | undefined
}) => {
  const privateAddresses = options.privateAddresses ?? "deny"
  return CoreLive.pipe(
    Layer.provideMerge(withVaultJobs),
    Layer.provideMerge(ConnectorsNode({ privateAddresses })),
    Layer.provideMerge(vaultLayer(options.vault)),
    Layer.provideMerge(options.storage),
    Layer.provideMerge(Layer.mergeAll(
      options.keys,
      Layer.succeed(PublicUrls, publicRoutesAt(options.publicUrl, options.vaultOrigin)),
      Layer.succeed(EgressSettings, { privateAddresses }),
      options.webhookSender ?? NodeWebhookSenderLive(privateAddresses),
      options.rateLimiter ?? MemoryRateLimiter,
      options.rateLimits === undefined ? Layer.empty : Layer.succeed(RateLimitDefaults, options.rateLimits),
      options.failedAuthentications === undefined
        ? Layer.empty
        : Layer.succeed(FailedAuthenticationLimit, options.failedAuthentications)
    ))
  )
}
