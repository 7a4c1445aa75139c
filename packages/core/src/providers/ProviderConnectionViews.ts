import { Context, Effect, Layer } from "effect"
import { PublicBaseUrl } from "../ports/PublicBaseUrl.js"
import type { ProviderConnection, ProviderConnectionView } from "./ProviderConnection.js"

/** Where a connection's PSP sends webhooks: `/v1/provider-webhooks/{connection id}` on this service. */
export const providerWebhookPath = (connectionId: string) => `/v1/provider-webhooks/${connectionId}`

/** A connection as the API (and its events) show it, with the webhook address to give the PSP. */
export class ProviderConnectionViews extends Context.Tag("core/ProviderConnectionViews")<ProviderConnectionViews, {
  readonly view: (connection: ProviderConnection) => ProviderConnectionView
}>() {
  static readonly layer = Layer.effect(
    ProviderConnectionViews,
    Effect.map(PublicBaseUrl, (baseUrl) => ({
      view: (connection) => ({ ...connection, webhook_url: `${baseUrl}${providerWebhookPath(connection.id)}` })
    }))
  )
}
