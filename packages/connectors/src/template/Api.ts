import { type ConnectorContext, type ConnectorError, ConnectorUnavailable } from "@orchestrator/core/providers/PaymentConnector"
import { Effect, Redacted } from "effect"
import { connectionClient, exchange, type PspHttp, type PspResponse } from "../transport/PspHttp.js"
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
  const { client, timeouts } = connectionClient(http, connection.livemode, settings, TEMPLATE_LIVE_HOSTS)
  const baseUrl = (connection.base_url ?? TEMPLATE_TEST_BASE_URL).replace(/\/+$/, "")
  const secretKey = Effect.flatMap(
    Effect.mapError(context.credentials, () => new ConnectorUnavailable({ reason: "the connection has no credentials" })),
    (credentials) => {
      const key = Redacted.value(credentials).secret_key
      return key === undefined || key === ""
        ? Effect.fail(new ConnectorUnavailable({ reason: "the connection needs credentials.secret_key" }))
        : Effect.succeed(key)
    }
  )
  return (what, request) =>
    Effect.flatMap(secretKey, (key) =>
      exchange(client, {
        method: request.method,
        url: `${baseUrl}${request.path}`,
        headers: {
          authorization: `Bearer ${key}`,
          accept: "application/json",
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
          ...(request.idempotencyKey === undefined ? {} : { "idempotency-key": request.idempotencyKey })
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
      }, timeouts, `Template ${what}`))
}
