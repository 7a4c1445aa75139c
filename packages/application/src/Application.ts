import type { SqlClient } from "@effect/sql"
import { ConnectorsLive } from "@orchestrator/connectors/ConnectorsLive"
import { SandboxLedger } from "@orchestrator/connectors/sandbox/SandboxLedger"
import { SandboxLedgerSql } from "@orchestrator/connectors/sandbox/SandboxLedgerSql"
import { CoreSecrets, CoreServices } from "@orchestrator/core/CoreServices"
import { EgressSettings, ownOriginAccess, type PrivateAddresses } from "@orchestrator/core/egress/EgressPolicy"
import { makeEgressClient } from "@orchestrator/egress/EgressClient"
import { StorageMemory, type StoragePorts } from "@orchestrator/core/memory/StorageMemory"
import { FailedAuthenticationLimit } from "@orchestrator/core/limits/FailedAuthentications"
import { type Rate, RateLimiter } from "@orchestrator/core/limits/RateLimiter"
import { RateLimitDefaults } from "@orchestrator/core/limits/RateLimits"
import { PublicBaseUrl } from "@orchestrator/core/ports/PublicBaseUrl"
import { Readiness } from "@orchestrator/core/ports/Readiness"
import type { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import type { WebhookSender } from "@orchestrator/core/webhooks/WebhookSender"
import { StorageSql } from "@orchestrator/sql/StorageSql"
import { NodeWebhookSenderLive } from "@orchestrator/webhook-sender/NodeWebhookSender"
import { sandboxNotifierJob } from "@orchestrator/connectors/sandbox/SandboxNotifications"
import { sandboxSubscriptionsJob } from "@orchestrator/connectors/sandbox/SandboxSubscriptions"
import { ExtraJobs } from "@orchestrator/core/ports/Jobs"
import { ConnectionSecrets } from "@orchestrator/core/providers/ConnectionSecrets"
import { ProviderConnectionsRepository } from "@orchestrator/core/providers/ProviderConnectionsRepository"
import { ApiKeysRepository } from "@orchestrator/core/tenancy/ApiKeysRepository"
import { OrganizationsRepository } from "@orchestrator/core/tenancy/OrganizationsRepository"
import { Effect, Layer, Option } from "effect"
import { PspHttpNode } from "./PspHttpNode.js"

/** What every request reads first (its key, organization and connections), kept a moment in memory. */
const RecentReads = Layer.mergeAll(
  ApiKeysRepository.withRecentReads,
  OrganizationsRepository.withRecentReads,
  ProviderConnectionsRepository.withRecentReads
)

/** Where the data lives: the core's storage ports and the sandbox PSP's books, over one database. */
export const sqlStorage = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RecentReads.pipe(Layer.provideMerge(Layer.mergeAll(StorageSql, SandboxLedgerSql)), Layer.provideMerge(database))

/** The same ports in memory, for tests that need no database. */
export const memoryStorage = Layer.mergeAll(
  StorageMemory,
  SandboxLedger.layerMemory,
  Layer.succeed(Readiness, { problem: Effect.succeed(Option.none()) })
)

/** What a storage provides: the core's ports, the sandbox's books, and whether it is ready. */
export type Storage = StoragePorts | SandboxLedger | Readiness

/**
 * The sandbox PSP's webhooks go back to this service at its public address, which is usually
 * private (localhost in development, an internal name behind a proxy): that one origin is reached
 * through the egress client like any call (no redirect, 10 s, the answer's first KiB), whatever
 * the operator's setting for merchants' URLs, since the operator chose it. The status, if any came.
 */
const postToOwnOrigin = (baseUrl: string) => {
  const egress = makeEgressClient()
  const access = ownOriginAccess(baseUrl)
  return {
    close: egress.close,
    post: (url: string, body: Uint8Array, headers: Record<string, string>) =>
      egress.send({ method: "POST", url, headers, body, access, deadlineMs: 10_000, answerLimit: { bytes: 1024, beyond: "truncate" } }).pipe(
        Effect.map((answer) => Option.some(answer.status)),
        Effect.orElseSucceed(() => Option.none<number>())
      )
  }
}

/** The sandbox PSP's own background work (settling refunds, sending its webhooks), given what it needs. */
const SandboxNotifierLive = Layer.scoped(
  ExtraJobs,
  Effect.gen(function*() {
    const ledger = yield* SandboxLedger
    const connections = yield* ProviderConnectionsRepository
    const secrets = yield* ConnectionSecrets
    const baseUrl = yield* PublicBaseUrl
    const { post, close } = postToOwnOrigin(baseUrl)
    yield* Effect.addFinalizer(() => Effect.sync(close))
    return [sandboxSubscriptionsJob(ledger), sandboxNotifierJob({
      ledger,
      baseUrl,
      post,
      webhookSecret: (connectionId) =>
        Effect.flatMap(connections.findOwned(connectionId), Option.match({
          onNone: () => Effect.succeed(Option.none()),
          onSome: ({ connection }) => Effect.option(secrets.webhookSecret(connection))
        }))
    })]
  })
)

/**
 * The composition root below the shells: the core's services over a storage, the connectors, the
 * key material and the public address. The HTTP server, the worker, the command-line tool, the
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
}) => {
  const privateAddresses = options.privateAddresses ?? "deny"
  return CoreServices.pipe(
    Layer.provideMerge(Layer.merge(ConnectorsLive.pipe(Layer.provide(PspHttpNode({ privateAddresses }))), SandboxNotifierLive)),
    Layer.provideMerge(CoreSecrets),
    Layer.provideMerge(options.storage),
    Layer.provideMerge(Layer.mergeAll(
      options.keys,
      Layer.succeed(PublicBaseUrl, options.publicUrl),
      Layer.succeed(EgressSettings, { privateAddresses }),
      options.webhookSender ?? NodeWebhookSenderLive(privateAddresses),
      options.rateLimiter ?? RateLimiter.layerLocal,
      options.rateLimits === undefined ? Layer.empty : Layer.succeed(RateLimitDefaults, options.rateLimits),
      options.failedAuthentications === undefined
        ? Layer.empty
        : Layer.succeed(FailedAuthenticationLimit, options.failedAuthentications)
    ))
  )
}
