import { type IncomingWebhook, type MissingSecret, type ProviderEvent, WebhookRejected } from "@orchestrator/core"
import { Effect, type Redacted } from "effect"

/**
 * Verifies a Template webhook as the PSP documents it (a signature over the raw bytes, a fetch of
 * the object by id, …) and reads its events in the port's terms: `PaymentUpdated` and
 * `RefundUpdated` naming our reference or the PSP's id. Until written, every webhook is refused: a
 * webhook nobody verified must never move money.
 */
export const readTemplateWebhook = (
  _webhook: IncomingWebhook,
  _webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>
): Effect.Effect<ReadonlyArray<ProviderEvent>, WebhookRejected> => Effect.fail(new WebhookRejected({ reason: "Template webhooks are not implemented yet" }))
