import { Context, Effect, Layer } from "effect"
import type { ProviderConnection, ProviderConnectionView } from "../../domain/providers/ProviderConnection.js"
import { PublicUrls } from "../../ports/PublicUrls.js"

/** A connection as the API (and its events) show it, with the webhook address to give the PSP. */
export class ProviderConnectionViews extends Context.Tag("core/ProviderConnectionViews")<ProviderConnectionViews, {
  readonly view: (connection: ProviderConnection) => ProviderConnectionView
}>() {
  static readonly layer = Layer.effect(
    ProviderConnectionViews,
    Effect.map(PublicUrls, (urls) => ({
      view: (connection) => ({ ...connection, webhook_url: urls.providerWebhook(connection.id) })
    }))
  )
}
