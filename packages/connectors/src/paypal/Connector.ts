import type { ConnectorContext, ConnectorDefinition, PaymentConnector } from "@orchestrator/core"
import type { PspHttp } from "../transport/PspHttp.js"
import { makePayPalCall } from "./Api.js"
import { paypalDisputes } from "./DisputeAnswers.js"
import { PAYPAL_METHOD, paypalAuthorize, paypalSyncPayment } from "./Orders.js"
import { paypalCancel, paypalCapture, paypalRefund, paypalSyncRefund } from "./Payments.js"
import { PAYPAL_LIVE_HOSTS, PayPalSettings } from "./Settings.js"
import { makeTokenCache, type TokenCache } from "./Token.js"
import { paypalWebhookClaim, readPayPalWebhook } from "./Webhooks.js"

export { PAYPAL_LIVE_BASE_URL, PAYPAL_SANDBOX_BASE_URL } from "./Settings.js"

/**
 * The PayPal connector (Orders v2, Payments v2): a `paypal` payment creates an order the payer
 * approves at PayPal (`next_action` redirect to its `approve` link); back from PayPal, `syncPayment`
 * finds the order APPROVED and captures or authorizes it. Every money-moving POST carries a
 * `PayPal-Request-Id` from our reference, so a retry or a reconciliation never charges twice.
 */
export const makePayPalConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: PayPalSettings,
  tokens: TokenCache = makeTokenCache()
): PaymentConnector => {
  const call = makePayPalCall(http, context, settings, tokens)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: paypalAuthorize(call),
    syncPayment: paypalSyncPayment(call),
    capture: paypalCapture(call),
    cancel: paypalCancel(call),
    refund: paypalRefund(call),
    syncRefund: paypalSyncRefund(call),
    verifyWebhook: readPayPalWebhook(call, settings.webhook_id),
    webhookClaim: paypalWebhookClaim,
    disputes: paypalDisputes(call)
  }
}

/**
 * The PayPal connection type: `credentials.client_id` and `credentials.client_secret` of a PayPal
 * REST app, `settings.webhook_id` of its webhook, timeouts in `settings`. It takes `paypal` payments
 * only. Access tokens are kept for all its connections, each until it expires.
 */
export const paypalDefinition = (http: PspHttp["Type"]): ConnectorDefinition<PayPalSettings> => {
  const tokens = makeTokenCache()
  return {
    settings: PayPalSettings,
    liveHosts: PAYPAL_LIVE_HOSTS,
    credentialKeys: [{ key: "client_id", required: true }, { key: "client_secret", required: true }],
    paymentMethods: [PAYPAL_METHOD],
    make: (context, settings) => makePayPalConnector(http, context, settings, tokens)
  }
}
