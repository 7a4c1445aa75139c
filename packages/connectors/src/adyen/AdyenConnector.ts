import {
  type ActionCompletion,
  AuthorizationOutcome,
  type AuthorizeRequest,
  CaptureOutcome,
  type CardDetails,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorError,
  ConnectorOutcomeUnknown,
  ConnectorUnavailable,
  ModificationOutcome,
  type PaymentConnector,
  RefundOutcome
} from "@orchestrator/core/providers/PaymentConnector"
import { failureMessage } from "@orchestrator/core/providers/FailureMessages"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { exchange, type PspHttp } from "../transport/PspHttp.js"
import { toAdyenValue } from "./AdyenAmounts.js"
import { isStoredPaymentMethod, paymentMethodOf } from "./AdyenPaymentMethod.js"
import { ModificationReceived, outcomeOfResult, PaymentResult, type ServiceError, ServiceError as ServiceErrorSchema } from "./AdyenResults.js"
import { ADYEN_LIVE_HOSTS, AdyenSettings } from "./AdyenSettings.js"
import { ADYEN_ACKNOWLEDGEMENT, CAPTURE_METADATA_KEY, readAdyenWebhook } from "./AdyenWebhooks.js"

/** Adyen's test endpoint. Live accounts have their own prefix: `https://{prefix}-checkout-live.adyenpayments.com/checkout`. */
export const ADYEN_TEST_BASE_URL = "https://checkout-test.adyen.com"
export const ADYEN_API_VERSION = "v71"

/** The parameters of a shopper's return that `/payments/details` takes; anything else is not passed on. */
const DETAIL_KEYS = ["redirectResult", "threeDSResult", "payload", "MD", "PaRes"] as const

const REFUND_REASONS: Readonly<Record<string, string>> = {
  duplicate: "DUPLICATE",
  fraudulent: "FRAUD",
  requested_by_customer: "CUSTOMER REQUEST"
}

/** Adyen's own references are 16 characters; ours stands in for one until Adyen assigns it. */
const isAdyenReference = (id: string) => /^[A-Z0-9]{16}$/.test(id)

const noCard: CardDetails = { brand: null, last4: null, country: null }

type Answer =
  | { readonly _tag: "Ok"; readonly json: unknown }
  | { readonly _tag: "Failed"; readonly status: number; readonly error: ServiceError }

const decodeServiceError = Schema.decodeUnknownOption(ServiceErrorSchema)

/** Hex SHA-256, the short form of a shopper's return parameters in an idempotency key. */
const digest = (text: string) =>
  Effect.promise(async () =>
    Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (byte) =>
      byte.toString(16).padStart(2, "0")).join("")
  )

/**
 * The Adyen connector (Checkout API v71): `/payments` under our attempt id as `reference` and
 * `Idempotency-Key`, `/payments/details` when the shopper is back from 3DS, and captures, cancels
 * and refunds that Adyen answers `received` and settles by notification: the port's `Pending`.
 * Adyen has no API to read a payment: reconciliation sends the same request again under its
 * idempotency key, which Adyen answers as it did the first time, and notifications do the rest.
 */
export const makeAdyenConnector = (
  http: PspHttp["Type"],
  context: ConnectorContext,
  settings: AdyenSettings
): PaymentConnector => {
  const { connection } = context
  const client = http.client({
    connectTimeoutMs: settings.connect_timeout_ms,
    timeoutMs: settings.timeout_ms,
    livemode: connection.livemode,
    liveHosts: ADYEN_LIVE_HOSTS
  })
  const baseUrl = `${(connection.base_url ?? ADYEN_TEST_BASE_URL).replace(/\/+$/, "")}/${ADYEN_API_VERSION}`
  const timeouts = { connectTimeoutMs: settings.connect_timeout_ms, timeoutMs: settings.timeout_ms }

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

  const call = (what: string, path: string, body: (merchantAccount: string) => unknown, idempotencyKey: string | null) =>
    Effect.gen(function*() {
      const { apiKey, merchantAccount } = yield* credentials
      const response = yield* exchange(client, {
        method: "POST",
        url: `${baseUrl}${path}`,
        headers: {
          "x-api-key": apiKey,
          "content-type": "application/json",
          accept: "application/json",
          ...(idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey })
        },
        body: JSON.stringify(body(merchantAccount))
      }, timeouts, `Adyen ${what}`)
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

  const read = <A, I>(schema: Schema.Schema<A, I>, what: string) => (json: unknown) =>
    Effect.mapError(Schema.decodeUnknown(schema)(json), () => new ConnectorOutcomeUnknown({ reason: `Adyen ${what}: unreadable answer` }))

  /** Adyen turned the request away: our code and message; its own words for the attempt record. */
  const refusal = (error: ServiceError) => {
    const code = error.status === 429 ? "rate_limited" : "invalid_request"
    return {
      code,
      message: failureMessage(code),
      providerMessage: `${error.errorCode ?? ""} ${error.message ?? ""}`.trim() || undefined
    }
  }

  const paymentBody = (request: AuthorizeRequest, value: number, paymentMethod: Record<string, unknown>) => (merchantAccount: string) => {
    const stored = isStoredPaymentMethod(paymentMethod)
    const browser = request.browser
    const completeBrowser = browser !== null && browser.userAgent !== null && browser.acceptHeader !== null &&
      browser.language !== null && browser.colorDepth !== null && browser.screenWidth !== null &&
      browser.screenHeight !== null && browser.timeZoneOffset !== null && browser.javaEnabled !== null
    return {
      amount: { value, currency: request.currency },
      reference: request.reference,
      merchantAccount,
      paymentMethod,
      returnUrl: request.returnUrl,
      channel: "Web",
      shopperInteraction: request.offSession ? "ContAuth" : "Ecommerce",
      ...(request.customer === null ? {} : { shopperReference: request.customer.id }),
      ...(request.customer?.email ? { shopperEmail: request.customer.email } : {}),
      ...(stored || request.storedCredential !== "none"
        ? { recurringProcessingModel: request.offSession ? "Subscription" : "CardOnFile" }
        : {}),
      ...(request.storedCredential === "initial" ? { storePaymentMethod: true } : {}),
      ...(completeBrowser
        ? {
          browserInfo: {
            userAgent: browser.userAgent,
            acceptHeader: browser.acceptHeader,
            language: browser.language,
            colorDepth: browser.colorDepth,
            screenWidth: browser.screenWidth,
            screenHeight: browser.screenHeight,
            timeZoneOffset: browser.timeZoneOffset,
            javaEnabled: browser.javaEnabled
          }
        }
        : {}),
      ...(browser?.ipAddress ? { shopperIP: browser.ipAddress } : {}),
      // The redirect flow of 3DS2: its action is a URL our next_action can carry.
      authenticationData: { threeDSRequestData: { nativeThreeDS: "disabled" } },
      ...(request.capture ? {} : { additionalData: { manualCapture: "true" } }),
      // Adyen echoes metadata in its AUTHORISATION notification: how the webhook knows the capture mode.
      metadata: { [CAPTURE_METADATA_KEY]: request.capture ? "automatic" : "manual", payment_id: request.paymentId }
    }
  }

  const completeAction = (request: ActionCompletion): Effect.Effect<AuthorizationOutcome, ConnectorError> =>
    Effect.gen(function*() {
      const details = Object.fromEntries(
        DETAIL_KEYS.flatMap((key) => request.details[key] === undefined ? [] : [[key, request.details[key]!] as const])
      )
      if (Object.keys(details).length === 0) return AuthorizationOutcome.Unknown()
      // The same return, sent twice (a reload), is one request; another return is another. Adyen
      // takes keys of at most 64 characters: our 34, a separator, and 24 of the digest.
      const key = `${request.reference}-d-${(yield* digest(JSON.stringify(details))).slice(0, 24)}`
      const answer = yield* call("payment details", "/payments/details", () => ({ details }), key)
      // Adyen rejects parameters that are not its own (anyone can call our return URL): nothing is
      // learnt then, and the payment waits for the real return or the notification.
      if (answer._tag === "Failed") return AuthorizationOutcome.Unknown()
      return outcomeOfResult(yield* read(PaymentResult, "payment details")(answer.json), request)
    })

  return {
    deadlineMs: settings.timeout_ms,

    authorize: (request) =>
      Effect.gen(function*() {
        const value = toAdyenValue(request.amount, request.currency)
        if (Either.isLeft(value)) {
          return AuthorizationOutcome.Refused({ pspPaymentId: null, ...value.left, retryable: false, card: noCard })
        }
        const paymentMethod = paymentMethodOf(request.paymentMethod.token)
        if (Either.isLeft(paymentMethod)) {
          return AuthorizationOutcome.Refused({
            pspPaymentId: null,
            code: "invalid_payment_method",
            message: paymentMethod.left,
            retryable: false,
            card: noCard
          })
        }
        const answer = yield* call(
          "payment",
          "/payments",
          paymentBody(request, value.right, paymentMethod.right),
          request.reference
        )
        if (answer._tag === "Ok") return outcomeOfResult(yield* read(PaymentResult, "payment")(answer.json), request)
        return AuthorizationOutcome.Refused({
          pspPaymentId: answer.error.pspReference ?? null,
          ...refusal(answer.error),
          retryable: answer.status === 429,
          card: noCard
        })
      }),

    // No status API at Adyen: nothing to learn here; the notification settles the payment.
    syncPayment: () => Effect.succeed(AuthorizationOutcome.Unknown()),

    completeAction,

    capture: ({ amount, currency, pspPaymentId, reference }) =>
      Effect.gen(function*() {
        const value = toAdyenValue(amount, currency)
        if (Either.isLeft(value)) return CaptureOutcome.Refused(value.left)
        const answer = yield* call(
          "capture",
          `/payments/${encodeURIComponent(pspPaymentId)}/captures`,
          (merchantAccount) => ({ merchantAccount, amount: { value: value.right, currency }, reference }),
          reference
        )
        if (answer._tag === "Failed") return CaptureOutcome.Refused(refusal(answer.error))
        yield* read(ModificationReceived, "capture")(answer.json)
        return CaptureOutcome.Pending()
      }),

    cancel: ({ pspPaymentId, reference }) =>
      Effect.gen(function*() {
        // Before Adyen assigned its reference (a redirect), the payment is canceled by ours.
        const answer = isAdyenReference(pspPaymentId)
          ? yield* call(
            "cancel",
            `/payments/${encodeURIComponent(pspPaymentId)}/cancels`,
            (merchantAccount) => ({ merchantAccount, reference }),
            reference
          )
          : yield* call(
            "cancel",
            "/cancels",
            (merchantAccount) => ({ merchantAccount, paymentReference: pspPaymentId, reference }),
            reference
          )
        if (answer._tag === "Failed") return ModificationOutcome.Refused(refusal(answer.error))
        yield* read(ModificationReceived, "cancel")(answer.json)
        return ModificationOutcome.Pending()
      }),

    refund: ({ amount, currency, pspPaymentId, reason, reference }) =>
      Effect.gen(function*() {
        const value = toAdyenValue(amount, currency)
        if (Either.isLeft(value)) return RefundOutcome.Failed({ pspRefundId: null, ...value.left })
        const answer = yield* call(
          "refund",
          `/payments/${encodeURIComponent(pspPaymentId)}/refunds`,
          (merchantAccount) => ({
            merchantAccount,
            amount: { value: value.right, currency },
            reference,
            ...(reason === null ? {} : { merchantRefundReason: REFUND_REASONS[reason] ?? "OTHER" })
          }),
          reference
        )
        if (answer._tag === "Failed") return RefundOutcome.Failed({ pspRefundId: null, ...refusal(answer.error) })
        const received = yield* read(ModificationReceived, "refund")(answer.json)
        return RefundOutcome.Pending({ pspRefundId: received.pspReference })
      }),

    // Refunds settle by notification (REFUND, REFUND_FAILED); Adyen has no API to read one.
    syncRefund: () => Effect.succeed(RefundOutcome.Unknown()),

    verifyWebhook: (webhook) =>
      readAdyenWebhook(
        webhook,
        context.webhookSecret,
        Effect.map(Effect.option(credentials), Option.match({
          onNone: () => undefined,
          onSome: ({ merchantAccount }) => merchantAccount
        })),
        connection.livemode
      ),

    webhookAcknowledgement: ADYEN_ACKNOWLEDGEMENT
  }
}

/**
 * The Adyen connection type: `credentials.api_key` and `credentials.merchant_account`, the hex HMAC
 * key of its standard webhook as `webhook_secret`, `base_url` for the live prefix, timeouts in `settings`.
 */
export const adyenDefinition = (http: PspHttp["Type"]): ConnectorDefinition<AdyenSettings> => ({
  settings: AdyenSettings,
  liveHosts: ADYEN_LIVE_HOSTS,
  credentialKeys: [{ key: "api_key", required: true }, { key: "merchant_account", required: true }],
  make: (context, settings) => makeAdyenConnector(http, context, settings)
})
