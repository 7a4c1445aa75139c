import { Context, type DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import { type EndpointHealth, HEALTHY } from "./EndpointHealth.js"
import { WebhookEndpoint } from "./WebhookEndpoint.js"

/** An endpoint's signing secrets, sealed: the current one, and the one it replaced while it still signs. */
export interface SealedEndpointSecrets {
  readonly current: string
  readonly previous: string | null
  readonly previousExpiresAt: DateTime.Utc | null
}

export class WebhookEndpointsRepository extends Context.Tag("core/WebhookEndpointsRepository")<
  WebhookEndpointsRepository,
  {
    readonly insert: (tenant: Tenant, endpoint: WebhookEndpoint, secrets: SealedEndpointSecrets) => Effect.Effect<void>
    readonly update: (tenant: Tenant, endpoint: WebhookEndpoint) => Effect.Effect<void>
    readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<WebhookEndpoint>>
    readonly list: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<WebhookEndpoint>, InvalidCursor>
    /** Deletes the endpoint and its deliveries; false when there was none. */
    readonly delete: (tenant: Tenant, id: string) => Effect.Effect<boolean>
    /** The tenant's active endpoints, for the fan-out of an event. */
    readonly active: (tenant: Tenant) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
    readonly findSecrets: (endpointId: string) => Effect.Effect<Option.Option<SealedEndpointSecrets>>
    readonly saveSecrets: (endpointId: string, secrets: SealedEndpointSecrets) => Effect.Effect<void>
    /** The health of its receiver (see `EndpointHealth`); with `forUpdate`, locked until the transaction ends. */
    readonly findHealth: (endpointId: string, options?: { readonly forUpdate: boolean }) => Effect.Effect<Option.Option<EndpointHealth>>
    /** Stores its health; its `failing_since` is the health's. */
    readonly saveHealth: (endpointId: string, health: EndpointHealth) => Effect.Effect<void>
  }
>() {
  static readonly layerMemory = Layer.effect(
    WebhookEndpointsRepository,
    Effect.map(MemoryStore, (store) => {
      type Row = { readonly organizationId: string; readonly endpoint: WebhookEndpoint; readonly health: EndpointHealth }
      const rows = () => store.table<Row>("webhook_endpoints")
      const secrets = () => store.table<SealedEndpointSecrets>("webhook_endpoint_secrets")
      const mine = (tenant: Tenant) =>
        [...rows().values()]
          .filter((row) => row.organizationId === tenant.organizationId && row.endpoint.livemode === tenant.livemode)
          .map((row) => row.endpoint)
      // As the SQL's update: the health columns are left as they are.
      const save = (tenant: Tenant, endpoint: WebhookEndpoint) =>
        Effect.sync(() => {
          const health = rows().get(endpoint.id)?.health ?? HEALTHY
          rows().set(endpoint.id, {
            organizationId: tenant.organizationId,
            endpoint: new WebhookEndpoint({ ...endpoint, failing_since: health.failingSince }),
            health
          })
        })
      return {
        insert: (tenant, endpoint, sealed) => Effect.zipRight(save(tenant, endpoint), Effect.sync(() => void secrets().set(endpoint.id, sealed))),
        update: save,
        find: (tenant, id) => Effect.sync(() => Option.fromNullable(mine(tenant).find((endpoint) => endpoint.id === id))),
        list: (tenant, page) => pageOf(mine(tenant), () => true, page),
        delete: (tenant, id) =>
          Effect.sync(() => {
            if (!mine(tenant).some((endpoint) => endpoint.id === id)) return false
            rows().delete(id)
            secrets().delete(id)
            for (const [deliveryId, row] of store.table<{ delivery: { endpoint_id: string } }>("webhook_deliveries")) {
              if (row.delivery.endpoint_id === id) store.table("webhook_deliveries").delete(deliveryId)
            }
            return true
          }),
        active: (tenant) => Effect.sync(() => mine(tenant).filter((endpoint) => endpoint.status === "active")),
        findSecrets: (endpointId) => Effect.sync(() => Option.fromNullable(secrets().get(endpointId))),
        saveSecrets: (endpointId, sealed) => Effect.sync(() => void secrets().set(endpointId, sealed)),
        findHealth: (endpointId) => Effect.sync(() => Option.map(Option.fromNullable(rows().get(endpointId)), (row) => row.health)),
        saveHealth: (endpointId, health) =>
          Effect.sync(() => {
            const row = rows().get(endpointId)
            if (row === undefined) return
            rows().set(endpointId, { ...row, health, endpoint: new WebhookEndpoint({ ...row.endpoint, failing_since: health.failingSince }) })
          })
      }
    })
  )
}
