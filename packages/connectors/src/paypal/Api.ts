import { type ConnectorContext, type ConnectorError, ConnectorOutcomeUnknown, ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Option, Redacted, Schema } from "effect"
import { answerReader, connectionClient, keyedBy, type PspAnswer, type PspHttp, sendCall } from "../transport/PspHttp.js"
import { PAYPAL_LIVE_BASE_URL, PAYPAL_LIVE_HOSTS, PAYPAL_SANDBOX_BASE_URL, type PayPalSettings } from "./Settings.js"
import type { TokenCache } from "./Token.js"
import { AccessToken, PayPalError } from "./Wire.js"

/** PayPal's answer to one call: the object, or its error with the HTTP status. */
export type Answer = PspAnswer<PayPalError>

/** One call to PayPal's REST API; POSTs that create or move money carry `requestId` as `PayPal-Request-Id`. */
export type PayPalCall = (what: string, request: {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: unknown
  /** A body already encoded (a webhook event sent back exactly as it came, a multipart form). */
  readonly rawBody?: string | Uint8Array
  /** The body's media type when it is not JSON (`multipart/form-data; boundary=…`). */
  readonly contentType?: string
  readonly requestId?: string
}) => Effect.Effect<Answer, ConnectorError>

const decodeError = Schema.decodeUnknownOption(PayPalError)
const decodeToken = Schema.decodeUnknown(AccessToken)

/** A request under this PayPal-Request-Id is still running at PayPal: its outcome is not known yet. */
const IN_PROGRESS = new Set(["PREVIOUS_REQUEST_IN_PROGRESS"])

/**
 * Calls to PayPal for one connection: its OAuth2 token (client credentials, cached until it expires),
 * the sandbox for a test connection and PayPal's live API for a live one unless `base_url` says
 * otherwise, and PayPal's errors sorted into what the caller handles (`Failed`) and what makes the
 * outcome unavailable or unknown.
 */
export const makePayPalCall = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: PayPalSettings,
  tokens: TokenCache
): PayPalCall => {
  const { connection } = context
  const destination = connectionClient(http, connection, settings, PAYPAL_LIVE_HOSTS, { live: PAYPAL_LIVE_BASE_URL, test: PAYPAL_SANDBOX_BASE_URL })

  const credentials = Effect.flatMap(
    Effect.mapError(context.credentials, () => new ConnectorUnavailable({ reason: "the connection has no credentials" })),
    (found) => {
      const { client_id, client_secret } = Redacted.value(found)
      return !client_id || !client_secret
        ? Effect.fail(new ConnectorUnavailable({ reason: "the connection needs credentials.client_id and credentials.client_secret" }))
        : Effect.succeed({ clientId: client_id, clientSecret: client_secret })
    }
  )

  const fetchToken = (clientId: string, clientSecret: string) =>
    Effect.gen(function*() {
      const response = yield* sendCall(destination, "PayPal access token", { method: "POST", path: "/v1/oauth2/token" }, {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded"
      }, "grant_type=client_credentials").pipe(
        // Only a token was asked for: however that call ended, no order or charge can have been made.
        Effect.catchTag("ConnectorOutcomeUnknown", (lost) => new ConnectorUnavailable({ reason: lost.reason }))
      )
      if (response.status !== 200) {
        return yield* new ConnectorUnavailable({
          reason: response.status === 401 || response.status === 400
            ? `PayPal rejected the credentials (HTTP ${response.status})`
            : `PayPal access token answered HTTP ${response.status}`,
          providerMessage: response.text
        })
      }
      // Nothing was sent on the payment's behalf yet: an unreadable token answer leaves it untouched.
      return yield* Effect.mapError(
        decodeToken(response.json),
        () => new ConnectorUnavailable({ reason: "PayPal access token: unreadable answer" })
      )
    })

  return (what, request) =>
    Effect.gen(function*() {
      const { clientId, clientSecret } = yield* credentials
      const key = `${connection.id}:${clientId}`
      const token = yield* tokens.token(key, fetchToken(clientId, clientSecret))
      const response = yield* sendCall(destination, `PayPal ${what}`, request, {
        authorization: `Bearer ${token}`,
        ...(request.method === "POST" ? { "content-type": request.contentType ?? "application/json", prefer: "return=representation" } : {}),
        ...keyedBy("paypal-request-id", request.requestId)
      }, request.rawBody)
      if (response.status >= 200 && response.status < 300) return { _tag: "Ok", json: response.json } as const
      // Reasons are ours (they reach operators); what PayPal said goes to the attempt record only.
      if (response.status === 401) {
        yield* tokens.drop(key)
        return yield* new ConnectorUnavailable({ reason: "PayPal refused the access token (HTTP 401)", providerMessage: response.text })
      }
      if (response.status === 403 || response.status >= 500) {
        return yield* new ConnectorUnavailable({
          reason: response.status === 403 ? "PayPal refused the call for this account (HTTP 403)" : `PayPal ${what} answered HTTP ${response.status}`,
          providerMessage: response.text
        })
      }
      const error = Option.getOrElse(decodeError(response.json), (): PayPalError => ({}))
      if (error.details?.some((detail) => IN_PROGRESS.has(detail.issue)) === true) {
        return yield* new ConnectorOutcomeUnknown({ reason: `PayPal ${what}: the same request is still in progress` })
      }
      return { _tag: "Failed", status: response.status, error } as const
    })
}

/** A 2xx body we cannot read: the outcome is unknown, and reconciliation asks again. */
export const read = answerReader("PayPal")

/** An id as a path segment. */
export const path = (id: string) => encodeURIComponent(id)
