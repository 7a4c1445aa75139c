import { Context, type DateTime, Effect, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { EndpointHealth } from "../domain/webhooks/EndpointHealth.js"
import { WebhookEndpoint } from "../domain/webhooks/WebhookEndpointResource.js"

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
>() {}
