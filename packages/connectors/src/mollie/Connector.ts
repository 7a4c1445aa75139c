import type { ConnectorContext, ConnectorDefinition, PaymentConnector } from "@orchestrator/core"
import { Effect, Option } from "effect"
import type { PspHttp } from "../transport/PspHttp.js"
import { makeMollieCall } from "./Api.js"
import { listChargebacks } from "./Chargebacks.js"
import { mollieCancel, mollieCapture } from "./Modifications.js"
import { MOLLIE_REDIRECT_METHODS, mollieAuthorize, mollieSyncPayment, retrievePayment } from "./Payments.js"
import { listRefunds, mollieRefund, mollieSyncRefund } from "./Refunds.js"
import { apiKeyProblem, MOLLIE_LIVE_HOSTS, MollieSettings } from "./Settings.js"
import { mollieWebhookClaim, readMollieWebhook } from "./Webhooks.js"

export { MOLLIE_BASE_URL } from "./Settings.js"

/**
 * The Mollie connector (Payments API v2): payments created under our reference as `Idempotency-Key`
 * with the amount as a decimal string, the customer sent to Mollie's checkout (`_links.checkout`),
 * captures of manual-capture card payments, cancels, refunds, and classic webhooks read by fetching
 * the payment they name, which is their only proof (with its refunds and chargebacks). Chargebacks
 * are read only: no `disputes` operations, so evidence answers `not_supported`.
 */
export const makeMollieConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: MollieSettings
): PaymentConnector => {
  const call = makeMollieCall(http, context, settings)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: mollieAuthorize(call, context.webhookUrl),
    syncPayment: mollieSyncPayment(call),
    capture: mollieCapture(call),
    cancel: mollieCancel(call),
    refund: mollieRefund(call),
    syncRefund: mollieSyncRefund(call),
    verifyWebhook: (webhook) =>
      readMollieWebhook(webhook, {
        payment: (id) => retrievePayment(call, id),
        refunds: (id) => Effect.map(listRefunds(call, id), Option.getOrElse(() => [])),
        chargebacks: (id) => listChargebacks(call, id)
      }),
    webhookClaim: mollieWebhookClaim
  }
}

/**
 * The Mollie connection type: `credentials.api_key` (the website profile's `test_…` or `live_…` key,
 * which must match the connection's mode), timeouts in `settings`. No webhook secret: Mollie's
 * classic webhooks are verified by fetching the payment.
 */
export const mollieDefinition = (http: PspHttp["Type"]): ConnectorDefinition<MollieSettings> => ({
  settings: MollieSettings,
  liveHosts: MOLLIE_LIVE_HOSTS,
  // Cards by a Mollie Components token; iDEAL and Bancontact paid on Mollie's checkout.
  paymentMethods: ["card", ...MOLLIE_REDIRECT_METHODS],
  credentialKeys: [{ key: "api_key", required: true }],
  credentialsProblem: (credentials, livemode) => {
    const key = credentials.api_key
    const reason = key === undefined ? undefined : apiKeyProblem(key, livemode)
    return reason === undefined ? undefined : { key: "api_key", reason }
  },
  make: (context, settings) => makeMollieConnector(http, context, settings)
})
