import {
  AuthorizationOutcome,
  CaptureOutcome,
  type CardDetails,
  type ConnectorContext,
  type ConnectorDefinition,
  ConnectorOutcomeUnknown,
  ConnectorUnavailable,
  ModificationOutcome,
  type PaymentConnector,
  RefundOutcome
} from "@orchestrator/core/providers/PaymentConnector"
import { failureMessage } from "@orchestrator/core/providers/FailureMessages"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { exchange, type PspHttp } from "../transport/PspHttp.js"
import { fromStripeAmount, stripeCurrency, toStripeAmount } from "./StripeAmounts.js"
import { failureOf, StripeErrorBody } from "./StripeErrors.js"
import { encodeForm } from "./StripeForm.js"
import {
  outcomeOfIntent,
  outcomeOfRefund,
  PaymentIntent,
  PaymentIntentSearch,
  REFERENCE_KEY,
  Refund,
  RefundList
} from "./StripeObjects.js"
import { makeStripeBilling } from "./StripeBilling.js"
import type { StripeCall } from "./StripeCall.js"
import { STRIPE_LIVE_HOSTS, StripeSettings } from "./StripeSettings.js"
import { readStripeWebhook } from "./StripeWebhooks.js"

export const STRIPE_BASE_URL = "https://api.stripe.com"

/**
 * Pinned so that Stripe's answers keep the shape this connector reads and the contract tests check:
 * the version of the published OpenAPI document we validate against (it still lists an intent's
 * charges, hence the card's brand and last4 without expansion).
 */
export const STRIPE_API_VERSION = "2020-08-27"

/** The `reason`s Stripe takes on a refund; any other stays in our records only. */
const REFUND_REASONS = new Set(["duplicate", "fraudulent", "requested_by_customer"])

const noCard: CardDetails = { brand: null, last4: null, country: null }

const decodeErrorBody = Schema.decodeUnknownOption(StripeErrorBody)

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
  const { connection } = context
  const client = http.client({
    connectTimeoutMs: settings.connect_timeout_ms,
    timeoutMs: settings.timeout_ms,
    livemode: connection.livemode,
    liveHosts: STRIPE_LIVE_HOSTS
  })
  const baseUrl = (connection.base_url ?? STRIPE_BASE_URL).replace(/\/+$/, "")
  const timeouts = { connectTimeoutMs: settings.connect_timeout_ms, timeoutMs: settings.timeout_ms }

  /** The secret key, checked against the connection's mode: a live key never serves test traffic. */
  const secretKey = Effect.flatMap(
    Effect.mapError(context.credentials, () => new ConnectorUnavailable({ reason: "the connection has no credentials" })),
    (credentials) => {
      const key = Redacted.value(credentials).secret_key
      if (key === undefined || key === "") {
        return Effect.fail(new ConnectorUnavailable({ reason: "the connection has no credentials.secret_key" }))
      }
      const live = /^(sk|rk)_live_/.test(key)
      return live !== connection.livemode && /^(sk|rk)_(live|test)_/.test(key)
        ? Effect.fail(new ConnectorUnavailable({ reason: `a ${live ? "live" : "test"} Stripe key on a ${connection.livemode ? "live" : "test"} connection` }))
        : Effect.succeed(key)
    }
  )

  const call: StripeCall = (what, request) =>
    Effect.gen(function*() {
      const key = yield* secretKey
      const query = request.query === undefined ? "" : `?${new URLSearchParams(request.query).toString()}`
      const response = yield* exchange(client, {
        method: request.method,
        url: `${baseUrl}${request.path}${query}`,
        headers: {
          authorization: `Bearer ${key}`,
          "stripe-version": STRIPE_API_VERSION,
          accept: "application/json",
          ...(request.method === "POST"
            ? { "content-type": "application/x-www-form-urlencoded", "idempotency-key": request.idempotencyKey! }
            : {})
        },
        ...(request.form === undefined ? {} : { body: encodeForm(request.form) })
      }, timeouts, `Stripe ${what}`)
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

  /** A 2xx body we cannot read: Stripe acted, we do not know how; reconciliation asks again. */
  const read = <A, I>(schema: Schema.Schema<A, I>, what: string) => (json: unknown) =>
    Effect.mapError(
      Schema.decodeUnknown(schema)(json),
      () => new ConnectorOutcomeUnknown({ reason: `Stripe ${what}: unreadable answer` })
    )

  const path = (id: string) => encodeURIComponent(id)

  const retrieveIntent = (id: string) =>
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
  const searchByReference = (reference: string) =>
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

  return {
    deadlineMs: settings.timeout_ms,

    authorize: (request) =>
      Effect.gen(function*() {
        const amount = toStripeAmount(request.amount, request.currency)
        if (Either.isLeft(amount)) {
          return AuthorizationOutcome.Refused({ pspPaymentId: null, ...amount.left, retryable: false, card: noCard })
        }
        // Stripe forgets idempotency keys after 24 hours: an attempt sent before is looked for first,
        // so a resend after that never creates a second intent. (Searchable within about a minute;
        // reconciliation waits longer than that.)
        if (request.resend === true) {
          const found = Option.flatten(yield* searchByReference(request.reference))
          if (Option.isSome(found)) return outcomeOfIntent(found.value)
        }
        const answer = yield* call("create payment intent", {
          method: "POST",
          path: "/v1/payment_intents",
          idempotencyKey: request.reference,
          form: {
            amount: amount.right,
            currency: stripeCurrency(request.currency),
            payment_method: request.paymentMethod.token,
            confirm: true,
            capture_method: request.capture ? "automatic" : "manual",
            // The customer is not there to be redirected: Stripe then declines with authentication_required.
            return_url: request.offSession ? undefined : request.returnUrl,
            off_session: request.offSession ? true : undefined,
            setup_future_usage: request.storedCredential === "initial" ? "off_session" : undefined,
            // Stripe keeps at most 1 000 characters; ours may be longer.
            description: request.description?.slice(0, 1000) ?? undefined,
            metadata: { [REFERENCE_KEY]: request.reference, payment_id: request.paymentId }
          }
        })
        if (answer._tag === "Ok") return outcomeOfIntent(yield* read(PaymentIntent, "create payment intent")(answer.json))
        const failure = failureOf(answer.error, answer.status)
        return AuthorizationOutcome.Refused({
          pspPaymentId: answer.error.payment_intent?.id ?? null,
          ...failure,
          card: noCard
        })
      }),

    syncPayment: ({ pspPaymentId, reference }) =>
      Effect.gen(function*() {
        if (pspPaymentId !== null) {
          const intent = yield* retrieveIntent(pspPaymentId)
          return intent._tag === "Some" ? outcomeOfIntent(intent.value) : AuthorizationOutcome.Unknown()
        }
        // No id: the answer to the create was lost. Search finds the intent by our reference.
        const searched = yield* searchByReference(reference)
        if (Option.isNone(searched)) {
          return yield* new ConnectorOutcomeUnknown({ reason: "Stripe search payment intents: refused" })
        }
        return Option.isNone(searched.value) ? AuthorizationOutcome.Unknown() : outcomeOfIntent(searched.value.value)
      }),

    capture: ({ amount, currency, pspPaymentId, reference }) =>
      Effect.gen(function*() {
        const stripeAmount = toStripeAmount(amount, currency)
        if (Either.isLeft(stripeAmount)) return CaptureOutcome.Refused(stripeAmount.left)
        const answer = yield* call("capture payment intent", {
          method: "POST",
          path: `/v1/payment_intents/${path(pspPaymentId)}/capture`,
          idempotencyKey: reference,
          form: { amount_to_capture: stripeAmount.right }
        })
        const intent = answer._tag === "Ok"
          ? yield* read(PaymentIntent, "capture payment intent")(answer.json)
          : answer.error.type === "idempotency_error"
          // Captured before under this reference with another amount: the first capture stands.
          ? Option.getOrUndefined(yield* retrieveIntent(pspPaymentId))
          : undefined
        if (intent === undefined) {
          const failure = answer._tag === "Failed" ? failureOf(answer.error, answer.status) : undefined
          return CaptureOutcome.Refused({
            code: failure?.code ?? "capture_failed",
            message: failure?.message ?? failureMessage("capture_failed"),
            providerMessage: failure?.providerMessage
          })
        }
        switch (intent.status) {
          case "succeeded":
            return CaptureOutcome.Captured({ amount: fromStripeAmount(intent.amount_received ?? 0, intent.currency) })
          case "processing":
            return CaptureOutcome.Pending()
          default:
            return CaptureOutcome.Refused({
              code: "payment_intent_unexpected_state",
              message: failureMessage("payment_intent_unexpected_state"),
              providerMessage: `the payment intent is ${intent.status}`
            })
        }
      }),

    cancel: ({ pspPaymentId, reference }) =>
      Effect.map(
        call("cancel payment intent", {
          method: "POST",
          path: `/v1/payment_intents/${path(pspPaymentId)}/cancel`,
          idempotencyKey: reference,
          form: {}
        }),
        (answer) => {
          if (answer._tag === "Ok") return ModificationOutcome.Done()
          const { code, message, providerMessage } = failureOf(answer.error, answer.status)
          return ModificationOutcome.Refused({ code, message, providerMessage })
        }
      ),

    refund: ({ amount, currency, pspPaymentId, reason, reference }) =>
      Effect.gen(function*() {
        const stripeAmount = toStripeAmount(amount, currency)
        if (Either.isLeft(stripeAmount)) return RefundOutcome.Failed({ pspRefundId: null, ...stripeAmount.left })
        const answer = yield* call("create refund", {
          method: "POST",
          path: "/v1/refunds",
          idempotencyKey: reference,
          form: {
            payment_intent: pspPaymentId,
            amount: stripeAmount.right,
            reason: reason !== null && REFUND_REASONS.has(reason) ? reason : undefined,
            metadata: { [REFERENCE_KEY]: reference }
          }
        })
        if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "create refund")(answer.json))
        const { code, message, providerMessage } = failureOf(answer.error, answer.status)
        return RefundOutcome.Failed({ pspRefundId: null, code, message, providerMessage })
      }),

    syncRefund: ({ pspPaymentId, pspRefundId, reference }) =>
      Effect.gen(function*() {
        if (pspRefundId !== undefined && pspRefundId !== null) {
          const answer = yield* call("retrieve refund", { method: "GET", path: `/v1/refunds/${path(pspRefundId)}` })
          if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "retrieve refund")(answer.json))
          if (answer.status === 404) return RefundOutcome.Unknown()
          return yield* new ConnectorOutcomeUnknown({ reason: `Stripe retrieve refund: ${answer.error.code ?? answer.status}` })
        }
        // Refunds have no search: list the payment's and find ours by its reference.
        if (pspPaymentId === undefined || pspPaymentId === null) return RefundOutcome.Unknown()
        const answer = yield* call("list refunds", {
          method: "GET",
          path: "/v1/refunds",
          query: { payment_intent: pspPaymentId, limit: "100" }
        })
        if (answer._tag === "Failed") {
          return answer.status === 404
            ? RefundOutcome.Unknown()
            : yield* new ConnectorOutcomeUnknown({ reason: `Stripe list refunds: ${answer.error.code ?? answer.status}` })
        }
        const found = (yield* read(RefundList, "list refunds")(answer.json)).data
          .find((refund) => refund.metadata?.[REFERENCE_KEY] === reference)
        return found === undefined ? RefundOutcome.Unknown() : outcomeOfRefund(found)
      }),

    verifyWebhook: (webhook) => readStripeWebhook(webhook, context.webhookSecret),

    subscriptions: makeStripeBilling(call)
  }
}

/** The Stripe connection type: `credentials.secret_key` (`sk_…` or a restricted `rk_…`), timeouts in `settings`. */
export const stripeDefinition = (http: PspHttp["Type"]): ConnectorDefinition<StripeSettings> => ({
  settings: StripeSettings,
  liveHosts: STRIPE_LIVE_HOSTS,
  credentialKeys: [{ key: "secret_key", required: true }],
  make: (context, settings) => makeStripeConnector(http, context, settings)
})
