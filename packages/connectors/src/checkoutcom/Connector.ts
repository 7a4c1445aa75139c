import type { ConnectorContext, ConnectorDefinition, PaymentConnector } from "@orchestrator/core"
import type { PspHttp } from "../transport/PspHttp.js"
import { checkoutComCapture, checkoutComRefund, checkoutComSyncRefund, checkoutComVoid } from "./Actions.js"
import { makeCheckoutComCall } from "./Api.js"
import { checkoutComDisputes } from "./DisputeAnswers.js"
import { checkoutComAuthorize, checkoutComSyncPayment } from "./Payments.js"
import { CHECKOUT_COM_LIVE_HOSTS, CheckoutComSettings } from "./Settings.js"
import { readCheckoutComWebhook } from "./Webhooks.js"

/** The connection type's name in the API, the dashboard and routing rules. */
export const CHECKOUT_COM_TYPE = "checkout_com"

/**
 * The Checkout.com connector (Unified Payments API, new account structure): `POST /payments` with a
 * card token or a stored source under our attempt id as reference and `Cko-Idempotency-Key`, 3D
 * Secure as a redirect, `GET /payments/{id}` to learn how it went, captures, voids and refunds, and
 * webhooks signed with `Cko-Signature`.
 */
export const makeCheckoutComConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: CheckoutComSettings
): PaymentConnector => {
  const call = makeCheckoutComCall(http, context, settings)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: checkoutComAuthorize(call, settings),
    syncPayment: checkoutComSyncPayment(call),
    capture: checkoutComCapture(call),
    cancel: checkoutComVoid(call),
    refund: checkoutComRefund(call),
    syncRefund: checkoutComSyncRefund(call),
    verifyWebhook: (webhook) => readCheckoutComWebhook(webhook, context.webhookSecret),
    disputes: checkoutComDisputes(call)
  }
}

/**
 * The Checkout.com connection type: `credentials.secret_key` (`sk_sbox_…` for test, `sk_…` live),
 * the webhook action's signature key as `webhook_secret`, `settings.processing_channel_id`, and
 * `base_url` for a per-merchant host (`https://{prefix}.api.checkout.com`).
 */
export const checkoutComDefinition = (http: PspHttp["Type"]): ConnectorDefinition<CheckoutComSettings> => ({
  settings: CheckoutComSettings,
  liveHosts: CHECKOUT_COM_LIVE_HOSTS,
  // Takes raw card numbers from a PCI-compliant sender: cards from the service\'s vault pay here.
  rawCards: true,
  credentialKeys: [{ key: "secret_key", required: true }],
  make: (context, settings) => makeCheckoutComConnector(http, context, settings)
})
