import { type ConnectorContext, ConnectorOutcomeUnknown, ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Option, Schema } from "effect"
import { connectionCredential } from "../transport/ConnectionCredential.js"
import type { MultipartBody } from "../transport/MultipartForm.js"
import { answerReader, connectionClient, type PspCall, type PspHttp, sendCall } from "../transport/PspHttp.js"
import { type StripeError, StripeErrorBody } from "./StripeErrors.js"
import { encodeForm, type FormObject } from "./StripeForm.js"
import { PaymentIntent, PaymentIntentSearch, REFERENCE_KEY } from "./StripeObjects.js"
import { STRIPE_LIVE_HOSTS, type StripeSettings } from "./StripeSettings.js"

export const STRIPE_BASE_URL = "https://api.stripe.com"
/** Stripe takes file uploads (`POST /v1/files`) on its own host. */
export const STRIPE_FILES_BASE_URL = "https://files.stripe.com"

/**
 * Pinned so that Stripe's answers keep the shape this connector reads and the contract tests check:
 * the version of the published OpenAPI document we validate against (it still lists an intent's
 * charges, hence the card's brand and last4 without expansion).
 */
export const STRIPE_API_VERSION = "2020-08-27"

/**
 * One call to Stripe's API; POSTs carry `idempotencyKey`. A call with an `upload` (multipart) goes to
 * Stripe's files host, or to the connection's `base_url` when it has one (a fake serves both).
 */
export type StripeCall = PspCall<StripeError, { readonly form?: FormObject; readonly upload?: MultipartBody }>

const decodeErrorBody = Schema.decodeUnknownOption(StripeErrorBody)

/**
 * Calls to Stripe's API for one connection: authenticated with its secret key (checked against the
 * connection's mode), pinned to our API version, with Stripe's errors sorted into what the caller
 * handles (`Failed`) and what makes the outcome unavailable or unknown.
 */
export const makeStripeCall = (http: PspHttp["Type"], context: ConnectorContext, settings: StripeSettings): StripeCall => {
  const { connection } = context
  const destination = connectionClient(http, connection, settings, STRIPE_LIVE_HOSTS, STRIPE_BASE_URL)
  const files = { ...destination, baseUrl: connection.base_url === null ? STRIPE_FILES_BASE_URL : destination.baseUrl }

  /** The secret key, checked against the connection's mode: a live key never serves test traffic. */
  const secretKey = connectionCredential(context, "secret_key", (key) => {
    const live = /^(sk|rk)_live_/.test(key)
    return live !== connection.livemode && /^(sk|rk)_(live|test)_/.test(key)
      ? `a ${live ? "live" : "test"} Stripe key on a ${connection.livemode ? "live" : "test"} connection`
      : undefined
  })

  return (what, request) =>
    Effect.gen(function*() {
      const key = yield* secretKey
      const response = yield* sendCall(
        request.upload === undefined ? destination : files,
        `Stripe ${what}`,
        request,
        {
          authorization: `Bearer ${key}`,
          "stripe-version": STRIPE_API_VERSION,
          ...(request.method === "POST"
            ? {
              "content-type": request.upload?.contentType ?? "application/x-www-form-urlencoded",
              "idempotency-key": request.idempotencyKey!
            }
            : {})
        },
        request.upload?.body ?? (request.form === undefined ? undefined : encodeForm(request.form))
      )
      if (response.status >= 200 && response.status < 300) return { _tag: "Ok", json: response.json } as const
      const body = decodeErrorBody(response.json)
      // Reasons are ours (they reach operators); what Stripe said goes to the attempt record only.
      if (response.status >= 500 || body._tag === "None") {
        return yield* new ConnectorUnavailable({
          reason: `Stripe ${what} answered HTTP ${response.status}`,
          providerMessage: response.text
        })
      }
      const error = body.value.error
      if (response.status === 401 || response.status === 403) {
        return yield* new ConnectorUnavailable({
          reason: `Stripe rejected the credentials (HTTP ${response.status})`,
          providerMessage: error.message ?? undefined
        })
      }
      // Another request under the same key is still running at Stripe: its outcome is not known yet.
      if (response.status === 409 || error.code === "idempotency_key_in_use") {
        return yield* new ConnectorOutcomeUnknown({ reason: `Stripe ${what}: the same request is still in progress` })
      }
      return { _tag: "Failed", status: response.status, error } as const
    })
}

/** A 2xx body we cannot read: the outcome is unknown, and reconciliation asks again. */
export const read = answerReader("Stripe")

/** An id as a path segment. */
export const path = (id: string) => encodeURIComponent(id)

/** The intent of `id`, or `None` when Stripe has none. */
export const retrieveIntent = (call: StripeCall, id: string) =>
  Effect.flatMap(call("retrieve payment intent", { method: "GET", path: `/v1/payment_intents/${path(id)}` }), (answer) =>
    answer._tag === "Ok"
      ? Effect.asSome(read(PaymentIntent, "retrieve payment intent")(answer.json))
      : answer.status === 404
      ? Effect.succeedNone
      : new ConnectorOutcomeUnknown({ reason: `Stripe retrieve payment intent: ${answer.error.code ?? answer.status}` }))

/**
 * The intent created under our reference, found by Stripe's search (its metadata): `None` when
 * Stripe refused the search (not every account has it), else what it found.
 */
export const searchByReference = (call: StripeCall, reference: string) =>
  Effect.flatMap(
    call("search payment intents", {
      method: "GET",
      path: "/v1/payment_intents/search",
      query: { query: `metadata['${REFERENCE_KEY}']:'${reference.replace(/'/g, "")}'`, limit: "1" }
    }),
    (answer) =>
      answer._tag === "Failed"
        ? Effect.succeed(Option.none<Option.Option<PaymentIntent>>())
        : Effect.map(
          read(PaymentIntentSearch, "search payment intents")(answer.json),
          (found) => Option.some(Option.fromNullable(found.data[0]))
        )
  )
