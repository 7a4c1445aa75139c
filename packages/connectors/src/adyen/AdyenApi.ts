import { type ConnectorContext, type ConnectorError, ConnectorOutcomeUnknown, ConnectorUnavailable, failureMessage } from "@orchestrator/core"
import { Effect, Option, Redacted, Schema } from "effect"
import { answerReader, connectionClient, exchange, type PspAnswer, type PspHttp } from "../transport/PspHttp.js"
import { type ServiceError, ServiceError as ServiceErrorSchema } from "./AdyenResults.js"
import { ADYEN_DISPUTES_LIVE_BASE_URL, ADYEN_DISPUTES_TEST_BASE_URL, ADYEN_LIVE_HOSTS, type AdyenSettings } from "./AdyenSettings.js"

/** Adyen's test endpoint. Live accounts have their own prefix: `https://{prefix}-checkout-live.adyenpayments.com/checkout`. */
export const ADYEN_TEST_BASE_URL = "https://checkout-test.adyen.com"
export const ADYEN_API_VERSION = "v71"

/** Adyen's answer to one call: the object, or its service error with the HTTP status. */
export type Answer = PspAnswer<ServiceError>

const decodeServiceError = Schema.decodeUnknownOption(ServiceErrorSchema)

/** One POST to Adyen's Checkout API, its body given the merchant account, under `idempotencyKey` when there is one. */
export type AdyenCall = (
  what: string,
  path: string,
  body: (merchantAccount: string) => unknown,
  idempotencyKey: string | null
) => Effect.Effect<Answer, ConnectorError>

/**
 * Calls to Adyen for one connection: its credentials (a live connection never defaults to Adyen's
 * test platform), and Adyen's errors sorted into what the caller handles (`Failed`) and what makes the
 * outcome unavailable or unknown.
 */
export const makeAdyenApi = (http: PspHttp["Type"], context: ConnectorContext, settings: AdyenSettings) => {
  const { connection } = context
  const { client, timeouts, baseUrl: host } = connectionClient(http, connection, settings, ADYEN_LIVE_HOSTS, ADYEN_TEST_BASE_URL)
  const baseUrl = `${host}/${ADYEN_API_VERSION}`

  const credentials = Effect.gen(function*() {
    // Live payments must never go to Adyen's test platform by default.
    if (connection.livemode && connection.base_url === null) {
      return yield* new ConnectorUnavailable({
        reason: "a live Adyen connection needs base_url: https://{prefix}-checkout-live.adyenpayments.com/checkout"
      })
    }
    const found = Redacted.value(
      yield* Effect.mapError(context.credentials, () => new ConnectorUnavailable({ reason: "the connection has no credentials" }))
    )
    if (!found.api_key || !found.merchant_account) {
      return yield* new ConnectorUnavailable({ reason: "the connection needs credentials.api_key and credentials.merchant_account" })
    }
    return { apiKey: found.api_key, merchantAccount: found.merchant_account }
  })

  /** One POST under `base` (Checkout's, or the Disputes API's). */
  const callUnder = (base: string): AdyenCall => (what, path, body, idempotencyKey) =>
    Effect.gen(function*() {
      const { apiKey, merchantAccount } = yield* credentials
      const response = yield* exchange(
        client,
        {
          method: "POST",
          url: `${base}${path}`,
          headers: {
            "x-api-key": apiKey,
            "content-type": "application/json",
            accept: "application/json",
            ...(idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey })
          },
          body: JSON.stringify(body(merchantAccount))
        },
        timeouts,
        `Adyen ${what}`
      )
      if (response.status >= 200 && response.status < 300) return { _tag: "Ok", json: response.json } as Answer
      // Reasons are ours (they reach operators); what Adyen said goes to the attempt record only.
      if (response.status >= 500 || response.status === 401 || response.status === 403) {
        return yield* new ConnectorUnavailable({
          reason: response.status >= 500 ? `Adyen ${what} answered HTTP ${response.status}` : `Adyen rejected the credentials (HTTP ${response.status})`,
          providerMessage: response.text
        })
      }
      const error = Option.getOrElse(decodeServiceError(response.json), (): ServiceError => ({ status: response.status }))
      // 704: a request under this idempotency key is still being processed.
      if (error.errorCode === "704") {
        return yield* new ConnectorOutcomeUnknown({ reason: `Adyen ${what}: the same request is still in progress` })
      }
      return { _tag: "Failed", status: response.status, error } as Answer
    })

  const disputesBaseUrl = (settings.disputes_base_url ?? (connection.livemode ? ADYEN_DISPUTES_LIVE_BASE_URL : ADYEN_DISPUTES_TEST_BASE_URL))
    .replace(/\/+$/, "")
  return { call: callUnder(baseUrl), disputesCall: callUnder(disputesBaseUrl), credentials }
}

/** A 2xx body we cannot read: the outcome is unknown, and reconciliation asks again. */
export const read = answerReader("Adyen")

/** Adyen turned the request away: our code and message; its own words for the attempt record. */
export const refusal = (error: ServiceError) => {
  const code = error.status === 429 ? "rate_limited" : "invalid_request"
  return {
    code,
    message: failureMessage(code),
    providerMessage: `${error.errorCode ?? ""} ${error.message ?? ""}`.trim() || undefined
  }
}
