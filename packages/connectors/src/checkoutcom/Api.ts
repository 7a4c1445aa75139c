import { type ConnectorContext, ConnectorOutcomeUnknown, ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Option, Schema } from "effect"
import { connectionCredential } from "../transport/ConnectionCredential.js"
import type { MultipartBody } from "../transport/MultipartForm.js"
import { answerReader, connectionClient, keyedBy, type PspCall, type PspHttp, sendCall } from "../transport/PspHttp.js"
import { CHECKOUT_COM_LIVE_HOSTS, CHECKOUT_COM_LIVE_URL, CHECKOUT_COM_SANDBOX_URL, type CheckoutComSettings } from "./Settings.js"
import { ErrorBody } from "./Wire.js"

/** One call to Checkout.com's API; a POST carries `idempotencyKey` as `Cko-Idempotency-Key`; an `upload` is sent as it is (multipart). */
export type CheckoutComCall = PspCall<ErrorBody, { readonly body?: unknown; readonly upload?: MultipartBody }>

const decodeError = Schema.decodeUnknownOption(ErrorBody)

/** NAS secret keys: `sk_sbox_…` in the sandbox, `sk_…` live. */
const SANDBOX_KEY = /^sk_sbox_/

/**
 * Calls to Checkout.com for one connection: `Authorization: Bearer` with its secret key (a sandbox
 * key never serves a live connection, nor the reverse), and Checkout.com's statuses sorted into what
 * the caller handles (`Failed`) and what makes the outcome unavailable or unknown.
 */
export const makeCheckoutComCall = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: CheckoutComSettings
): CheckoutComCall => {
  const { connection } = context
  const destination = connectionClient(http, connection, settings, CHECKOUT_COM_LIVE_HOSTS, { live: CHECKOUT_COM_LIVE_URL, test: CHECKOUT_COM_SANDBOX_URL })

  const secretKey = connectionCredential(context, "secret_key", (key) => {
    if (!key.startsWith("sk_")) return "the connection needs credentials.secret_key (sk_sbox_… or sk_…)"
    // The previous account structure (ABC) has `sk_test_…` keys sent without `Bearer`: another API.
    if (key.startsWith("sk_test_")) return "an ABC (previous account structure) key: this connector speaks NAS (sk_sbox_…, sk_…)"
    const sandbox = SANDBOX_KEY.test(key)
    return sandbox === connection.livemode
      ? `a ${sandbox ? "sandbox" : "live"} Checkout.com key on a ${connection.livemode ? "live" : "test"} connection`
      : undefined
  })

  return (what, request) =>
    Effect.gen(function*() {
      const key = yield* secretKey
      const response = yield* sendCall(destination, `Checkout.com ${what}`, request, {
        authorization: `Bearer ${key}`,
        ...(request.method === "POST" || request.method === "PUT" ? { "content-type": request.upload?.contentType ?? "application/json" } : {}),
        ...keyedBy("cko-idempotency-key", request.idempotencyKey)
      }, request.upload?.body)
      if (response.status >= 200 && response.status < 300) return { _tag: "Ok", json: response.json } as const
      // Reasons are ours (they reach operators); what Checkout.com said goes to the attempt record only.
      if (response.status >= 500 || response.status === 401) {
        return yield* new ConnectorUnavailable({
          reason: response.status === 401
            ? "Checkout.com rejected the credentials (HTTP 401)"
            : `Checkout.com ${what} answered HTTP ${response.status}`,
          providerMessage: response.text === "" ? undefined : response.text
        })
      }
      // Another request under this key is still being processed: 409 today, 429 ("too many requests or
      // duplicate request detected") in the 2021 document. A refusal could let a second provider charge
      // too, so the outcome is unknown and reconciliation sends it again under the same key.
      if ((response.status === 409 || response.status === 429) && request.idempotencyKey !== undefined) {
        return yield* new ConnectorOutcomeUnknown({ reason: `Checkout.com ${what}: too many requests, or the same request still in progress` })
      }
      const error = Option.getOrElse(decodeError(response.json), (): ErrorBody => ({}))
      return { _tag: "Failed", status: response.status, error } as const
    })
}

/** A 2xx body we cannot read: the outcome is unknown, and reconciliation asks again. */
export const read = answerReader("Checkout.com")

/** A payment id as a path segment. */
export const paymentPath = (id: string) => `/payments/${encodeURIComponent(id)}`
