import { AuthorizationOutcome, type ConnectorContext, type ConnectorDefinition, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Option } from "effect"
import type { PspHttp } from "../transport/PspHttp.js"
import { makeAdyenApi } from "./AdyenApi.js"
import { adyenDisputes } from "./AdyenDisputeAnswers.js"
import { adyenCancel, adyenCapture, adyenRefund } from "./AdyenModifications.js"
import { adyenAuthorize, adyenCompleteAction } from "./AdyenPayments.js"
import { ADYEN_LIVE_HOSTS, AdyenSettings } from "./AdyenSettings.js"
import { ADYEN_ACKNOWLEDGEMENT, readAdyenWebhook } from "./AdyenWebhooks.js"

export { ADYEN_API_VERSION, ADYEN_TEST_BASE_URL } from "./AdyenApi.js"

/**
 * The Adyen connector (Checkout API v71): `/payments` under our attempt id as `reference` and
 * `Idempotency-Key`, `/payments/details` when the shopper is back from 3DS, and captures, cancels
 * and refunds that Adyen answers `received` and settles by notification: the port's `Pending`.
 * Adyen has no API to read a payment: reconciliation sends the same request again under its
 * idempotency key, which Adyen answers as it did the first time, and notifications do the rest.
 */
export const makeAdyenConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: AdyenSettings
): PaymentConnector => {
  const { connection } = context
  const { call, credentials, disputesCall } = makeAdyenApi(http, context, settings)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: adyenAuthorize(call),
    // No status API at Adyen: nothing to learn here; the notification settles the payment.
    syncPayment: () => Effect.succeed(AuthorizationOutcome.Unknown()),
    completeAction: adyenCompleteAction(call),
    capture: adyenCapture(call),
    cancel: adyenCancel(call),
    refund: adyenRefund(call),
    // Refunds settle by notification (REFUND, REFUND_FAILED); Adyen has no API to read one.
    syncRefund: () => Effect.succeed(RefundOutcome.Unknown()),
    verifyWebhook: (webhook) =>
      readAdyenWebhook(
        webhook,
        context.webhookSecret,
        Effect.map(
          Effect.option(credentials),
          Option.match({
            onNone: () => undefined,
            onSome: ({ merchantAccount }) => merchantAccount
          })
        ),
        connection.livemode
      ),
    webhookAcknowledgement: ADYEN_ACKNOWLEDGEMENT,
    // Through the Disputes API (v30), on its own host.
    disputes: adyenDisputes(disputesCall)
  }
}

/**
 * The Adyen connection type: `credentials.api_key` and `credentials.merchant_account`, the hex HMAC
 * key of its standard webhook as `webhook_secret`, `base_url` for the live prefix, timeouts (and
 * the Disputes API's `disputes_base_url`, when not Adyen's own) in `settings`.
 */
export const adyenDefinition = (http: PspHttp["Type"]): ConnectorDefinition<AdyenSettings> => ({
  settings: AdyenSettings,
  liveHosts: ADYEN_LIVE_HOSTS,
  // Takes raw card numbers from a PCI-compliant sender: cards from the service\'s vault pay here.
  rawCards: true,
  credentialKeys: [{ key: "api_key", required: true }, { key: "merchant_account", required: true }],
  make: (context, settings) => makeAdyenConnector(http, context, settings)
})
