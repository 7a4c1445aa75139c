import { type ConnectorContext, ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Option, Schema } from "effect"
import { connectionCredential } from "../transport/ConnectionCredential.js"
import { answerReader, connectionClient, keyedBy, type PspCall, type PspHttp, sendCall } from "../transport/PspHttp.js"
import { apiKeyProblem, MOLLIE_BASE_URL, MOLLIE_LIVE_HOSTS, type MollieSettings } from "./Settings.js"
import { type MollieError, MollieError as MollieErrorSchema } from "./Wire.js"

/** One call to Mollie's API; POSTs and DELETEs carry `idempotencyKey` (Mollie's `Idempotency-Key`). */
export type MollieCall = PspCall<MollieError, { readonly body?: unknown }>

const decodeError = Schema.decodeUnknownOption(MollieErrorSchema)

/**
 * Calls to Mollie's API for one connection: its API key (checked against the connection's mode
 * before every call, so a live key never serves a test connection), JSON in, HAL JSON out, and
 * Mollie's errors sorted into what the caller handles (`Failed`) and what makes the outcome
 * unavailable or unknown.
 */
export const makeMollieCall = (http: PspHttp["Type"], context: ConnectorContext, settings: MollieSettings): MollieCall => {
  const { connection } = context
  const destination = connectionClient(http, connection, settings, MOLLIE_LIVE_HOSTS, MOLLIE_BASE_URL)

  const apiKey = connectionCredential(context, "api_key", (key) => apiKeyProblem(key, connection.livemode))

  return (what, request) =>
    Effect.gen(function*() {
      const key = yield* apiKey
      const response = yield* sendCall(destination, `Mollie ${what}`, request, {
        authorization: `Bearer ${key}`,
        accept: "application/hal+json",
        ...keyedBy("idempotency-key", request.idempotencyKey)
      })
      if (response.status >= 200 && response.status < 300) return { _tag: "Ok", json: response.json } as const
      // Reasons are ours (they reach operators); what Mollie said goes to the attempt record only.
      if (response.status >= 500) {
        return yield* new ConnectorUnavailable({ reason: `Mollie ${what} answered HTTP ${response.status}`, providerMessage: response.text })
      }
      if (response.status === 401 || response.status === 403) {
        return yield* new ConnectorUnavailable({
          reason: `Mollie rejected the API key (HTTP ${response.status})`,
          providerMessage: response.text
        })
      }
      const error = Option.getOrElse(
        decodeError(response.json),
        (): MollieError => ({ status: response.status, title: "", detail: response.text })
      )
      return { _tag: "Failed", status: response.status, error } as const
    })
}

/** A 2xx body we cannot read: the outcome is unknown, and reconciliation asks again. */
export const read = answerReader("Mollie")

/** An id as a path segment. */
export const path = (id: string) => encodeURIComponent(id)
