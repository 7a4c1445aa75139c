import {
  type ActionCompletion,
  AuthorizationOutcome,
  type CardDetails,
  type ConnectorError,
  type PaymentConnector,
  previousSchemeTransaction
} from "@orchestrator/core"
import { Effect, Either } from "effect"
import { toAdyenValue } from "./AdyenAmounts.js"
import { type AdyenCall, read, refusal } from "./AdyenApi.js"
import { paymentMethodOf, schemeCardOf } from "./AdyenPaymentMethod.js"
import { paymentBody } from "./AdyenPaymentRequest.js"
import { outcomeOfResult, PaymentResult } from "./AdyenResults.js"

/** The parameters of a shopper's return that `/payments/details` takes; anything else is not passed on. */
const DETAIL_KEYS = ["redirectResult", "threeDSResult", "payload", "MD", "PaRes"] as const

const noCard: CardDetails = { brand: null, last4: null, country: null }

/** Hex SHA-256, the short form of a shopper's return parameters in an idempotency key. */
const digest = (text: string) =>
  Effect.promise(async () =>
    Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (byte) => byte.toString(16).padStart(2, "0")).join("")
  )

/** `/payments` under our attempt id as `reference` and `Idempotency-Key`. */
export const adyenAuthorize = (call: AdyenCall): PaymentConnector["authorize"] => (request) =>
  Effect.gen(function*() {
    const value = toAdyenValue(request.amount, request.currency)
    if (Either.isLeft(value)) {
      return AuthorizationOutcome.Refused({ pspPaymentId: null, ...value.left, retryable: false, card: noCard })
    }
    // Routing sends Adyen cards only (its definition's default): a method without a token is refused.
    const vaultCard = request.vaultCard === undefined ? undefined : yield* request.vaultCard.reveal
    const paymentMethod = vaultCard !== undefined
      ? Either.right(schemeCardOf(vaultCard))
      : request.paymentMethod.token === null
      ? Either.left("Adyen takes card payments here.")
      : paymentMethodOf(request.paymentMethod.token)
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
      paymentBody(request, value.right, paymentMethod.right, vaultCard === undefined ? null : previousSchemeTransaction(request, vaultCard)),
      request.reference
    )
    if (answer._tag === "Ok") return outcomeOfResult(yield* read(PaymentResult, "payment")(answer.json), request)
    return AuthorizationOutcome.Refused({
      pspPaymentId: answer.error.pspReference ?? null,
      ...refusal(answer.error),
      retryable: answer.status === 429,
      card: noCard
    })
  })

/** `/payments/details` when the shopper is back from 3DS, with only Adyen's own return parameters. */
export const adyenCompleteAction = (call: AdyenCall) => (request: ActionCompletion): Effect.Effect<AuthorizationOutcome, ConnectorError> =>
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
