import { SandboxLedgerSql } from "@orchestrator/connectors"
import { ConnectorsNode } from "@orchestrator/connectors/node"
import { BackgroundJobs, CoreLive, EgressSettings, KeyMaterial, MemoryRateLimiter, PublicUrls } from "@orchestrator/core"
import { Database, StorageSql } from "@orchestrator/sql"
import { NodeWebhookSenderLive } from "@orchestrator/webhook-sender"
import { Layer } from "effect"

export interface ShopCoreOptions {
  /** Where this server answers from outside (PSPs post their webhooks there). */
  readonly baseUrl: string
  /** 32 random bytes kept secret: API keys, PSP credentials and return URLs are keyed from it. */
  readonly masterSecret: Uint8Array<ArrayBuffer>
  /** Where PGlite keeps the data; in memory when absent. */
  readonly dataDir?: string
}

/**
 * The core as this shop embeds it: every port of `CorePorts` filled, and the background jobs
 * (outbox, webhook deliveries, reconciliation, the sandbox's own work) running beside it.
 */
export const shopCore = (options: ShopCoreOptions) => {
  // The shop's own routes: the core only ever builds these URLs, the shop serves them.
  const urls: PublicUrls["Type"] = {
    base: options.baseUrl,
    paymentReturn: (paymentId, token) => `${options.baseUrl}/orders/${paymentId}/return?token=${token}`,
    providerWebhook: (connectionId) => `${options.baseUrl}/psp-webhooks/${connectionId}`,
    checkoutPage: (sessionId) => `${options.baseUrl}/pay/${sessionId}`
  }
  // Storage: every repository over one migrated PGlite (PostgreSQL: `{ _tag: "Postgres", url }`),
  // and the sandbox PSP's books beside them.
  const storage = Layer.merge(StorageSql, SandboxLedgerSql).pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir: options.dataDir }))
  )
  // This example posts to itself on localhost, which test mode may do only when allowed.
  const privateAddresses = "allow" as const
  return BackgroundJobs.pipe(
    Layer.provideMerge(CoreLive),
    Layer.provideMerge(ConnectorsNode({ privateAddresses })),
    Layer.provideMerge(storage),
    Layer.provideMerge(Layer.mergeAll(
      Layer.succeed(PublicUrls, urls),
      KeyMaterial.fromMasterSecret(options.masterSecret),
      NodeWebhookSenderLive(privateAddresses),
      MemoryRateLimiter,
      Layer.succeed(EgressSettings, { privateAddresses })
    ))
  )
}
