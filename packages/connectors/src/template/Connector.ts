import { type ConnectorContext, type ConnectorDefinition, ConnectorUnavailable, type PaymentConnector } from "@orchestrator/core"
import { Effect } from "effect"
import type { PspHttp } from "../transport/PspHttp.js"
import { makeTemplateCall, type TemplateCall } from "./Api.js"
import { TEMPLATE_CREDENTIAL_KEYS, TEMPLATE_LIVE_HOSTS, TemplateSettings } from "./Settings.js"
import { readTemplateWebhook } from "./Webhooks.js"

/**
 * An operation not written yet: the PSP "cannot serve" it, so nothing is charged and the payment may
 * fail over. Each one becomes a function of `call` (in this file, or one file per operation when it
 * grows), its shapes in `Wire.ts`, until the shared contract test passes.
 */
const notImplemented = (_call: TemplateCall, operation: string) => () =>
  Effect.fail(new ConnectorUnavailable({ reason: `the Template connector does not implement ${operation} yet` }))

/**
 * The Template connector: our reference is the PSP's idempotency key on every call that moves money,
 * so a retry or a reconciliation after a lost answer never charges twice.
 */
export const makeTemplateConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: TemplateSettings
): PaymentConnector => {
  const call = makeTemplateCall(http, context, settings)
  return {
    deadlineMs: settings.timeout_ms,
    authorize: notImplemented(call, "authorize"),
    syncPayment: notImplemented(call, "syncPayment"),
    capture: notImplemented(call, "capture"),
    cancel: notImplemented(call, "cancel"),
    refund: notImplemented(call, "refund"),
    syncRefund: notImplemented(call, "syncRefund"),
    verifyWebhook: (webhook) => readTemplateWebhook(webhook, context.webhookSecret)
  }
}

/** The Template connection type, registered by one line in `ConnectorCatalogLive.ts`. */
export const templateDefinition = (http: PspHttp["Type"]): ConnectorDefinition<TemplateSettings> => ({
  settings: TemplateSettings,
  liveHosts: TEMPLATE_LIVE_HOSTS,
  credentialKeys: TEMPLATE_CREDENTIAL_KEYS,
  make: (context, settings) => makeTemplateConnector(http, context, settings)
})
