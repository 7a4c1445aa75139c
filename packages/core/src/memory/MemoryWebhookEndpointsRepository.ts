import { Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { type EndpointHealth, HEALTHY } from "../domain/webhooks/EndpointHealth.js"
import { WebhookEndpoint } from "../domain/webhooks/WebhookEndpointResource.js"
import { type SealedEndpointSecrets, WebhookEndpointsRepository } from "../ports/WebhookEndpointsRepository.js"
import { pageOf } from "./MemoryPaging.js"
import { MemoryStore } from "./MemoryStore.js"

/** `WebhookEndpointsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryWebhookEndpointsRepository = Layer.effect(
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
