import type { ConnectorContext, ConnectorError } from "@orchestrator/core"
import { Effect } from "effect"
import { connectionCredential } from "../transport/ConnectionCredential.js"
import { connectionClient, keyedBy, type PspHttp, type PspResponse, sendCall } from "../transport/PspHttp.js"
import { TEMPLATE_LIVE_HOSTS, TEMPLATE_TEST_BASE_URL, type TemplateSettings } from "./Settings.js"

/** One call to the Template API: JSON in and out, under our idempotency key when there is one. */
export type TemplateCall = (
  what: string,
  request: {
    readonly method: "GET" | "POST" | "DELETE"
    readonly path: string
    readonly body?: unknown
    readonly idempotencyKey?: string
  }
) => Effect.Effect<PspResponse, ConnectorError>

/**
 * Calls for one connection: its credentials (decrypted only now, never logged), its `base_url`, its
 * timeouts, and in live mode only the documented hosts. Every call goes through `PspHttp` (the
 * egress policy); statuses are the caller's to judge.
 */
export const makeTemplateCall = (http: PspHttp["Type"], context: ConnectorContext, settings: TemplateSettings): TemplateCall => {
  const { connection } = context
  const destination = connectionClient(http, connection, settings, TEMPLATE_LIVE_HOSTS, TEMPLATE_TEST_BASE_URL)
  const secretKey = connectionCredential(context, "secret_key")
  return (what, request) =>
    Effect.flatMap(
      secretKey,
      (key) => sendCall(destination, `Template ${what}`, request, { authorization: `Bearer ${key}`, ...keyedBy("idempotency-key", request.idempotencyKey) })
    )
}
