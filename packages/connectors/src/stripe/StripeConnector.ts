import type { ConnectorContext, ConnectorDefinition, PaymentConnector } from "@orchestrator/core"
import type { PspHttp } from "../transport/PspHttp.js"
import { makeStripeCall } from "./StripeApi.js"
import { makeStripeBilling } from "./StripeBilling.js"
import { stripeDisputes } from "./StripeDisputes.js"
import { stripeAuthorize, stripeCancel, stripeCapture, stripeSyncPayment } from "./StripePayments.js"
import { stripeRefund, stripeSyncRefund } from "./StripeRefunds.js"
import { STRIPE_LIVE_HOSTS, StripeSettings } from "./StripeSettings.js"
import { readStripeWebhook } from "./StripeWebhooks.js"

export { STRIPE_API_VERSION, STRIPE_BASE_URL } from "./StripeApi.js"

/**
 * The Stripe connector: PaymentIntents created and confirmed in one call, captured, canceled and
 * refunded, each POST under an `Idempotency-Key` derived from our reference, so a retry or a
 * reconciliation after a lost answer never charges twice.
 */
export const makeStripeConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: StripeSettings
): PaymentConnector => {
  const call = makeStripeCall(http, context, settings)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: stripeAuthorize(call),
    syncPayment: stripeSyncPayment(call),
    capture: stripeCapture(call),
    cancel: stripeCancel(call),
    refund: stripeRefund(call),
    syncRefund: stripeSyncRefund(call),
    verifyWebhook: (webhook) => readStripeWebhook(webhook, context.webhookSecret),
    subscriptions: makeStripeBilling(call),
    disputes: stripeDisputes(call)
  }
}

/** The Stripe connection type: `credentials.secret_key` (`sk_…` or a restricted `rk_…`), timeouts in `settings`. */
export const stripeDefinition = (http: PspHttp["Type"]): ConnectorDefinition<StripeSettings> => ({
  settings: StripeSettings,
  liveHosts: STRIPE_LIVE_HOSTS,
  // Takes raw card numbers from a PCI-compliant sender: cards from the service\'s vault pay here.
  rawCards: true,
  credentialKeys: [{ key: "secret_key", required: true }],
  make: (context, settings) => makeStripeConnector(http, context, settings)
})
