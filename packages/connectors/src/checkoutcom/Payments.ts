import { AuthorizationOutcome, type CardDetails, ConnectorOutcomeUnknown, type PaymentConnector, previousSchemeTransaction } from "@orchestrator/core"
import { Effect, Either } from "effect"
import { toCheckoutComAmount } from "./Amounts.js"
import { type CheckoutComCall, paymentPath, read } from "./Api.js"
import { declined, noCard, outcomeOfAccepted, outcomeOfDetails, outcomeOfProcessed } from "./Outcomes.js"
import { cardSourceOf, paymentBody, returnUrlFits, sourceOf } from "./PaymentRequest.js"
import { refusalOfError } from "./Refusals.js"
import type { CheckoutComSettings } from "./Settings.js"
import { PaymentAccepted, PaymentActions, PaymentDetails, PaymentProcessed } from "./Wire.js"

const refusedBeforeSending = (code: string, message: string) =>
  AuthorizationOutcome.Refused({ pspPaymentId: null, code, message, retryable: false, card: noCard })

/**
 * `POST /payments` under our attempt id as `reference` and `Cko-Idempotency-Key`: a resend (a lost
 * answer, reconciliation) is answered as the first request was, within Checkout.com's 24 hours.
 */
export const checkoutComAuthorize = (call: CheckoutComCall, settings: CheckoutComSettings): PaymentConnector["authorize"] => (request) =>
  Effect.gen(function*() {
    const amount = toCheckoutComAmount(request.amount, request.currency)
    if (Either.isLeft(amount)) return refusedBeforeSending(amount.left.code, amount.left.message)
    const vaultCard = request.vaultCard === undefined ? undefined : yield* request.vaultCard.reveal
    const previousTransaction = vaultCard === undefined ? null : previousSchemeTransaction(request, vaultCard)
    const source = vaultCard !== undefined ? Either.right(cardSourceOf(vaultCard, previousTransaction !== null)) : sourceOf(request.paymentMethod.token)
    if (Either.isLeft(source)) return refusedBeforeSending("invalid_payment_method", source.left)
    if (!returnUrlFits(request)) {
      return refusedBeforeSending("invalid_request", "The return URL is longer than the 255 characters Checkout.com takes.")
    }
    const answer = yield* call("payment", {
      method: "POST",
      path: "/payments",
      body: paymentBody(request, amount.right, source.right, settings, previousTransaction),
      idempotencyKey: request.reference
    })
    if (answer._tag === "Failed") {
      return AuthorizationOutcome.Refused({ pspPaymentId: null, ...refusalOfError(answer.status, answer.error), retryable: false, card: noCard })
    }
    // 201: processed, `approved` or not; 202: pending, maybe with the customer's page.
    const processed = typeof answer.json === "object" && answer.json !== null && "approved" in answer.json
    return processed
      ? outcomeOfProcessed(yield* read(PaymentProcessed, "payment")(answer.json), request)
      : outcomeOfAccepted(yield* read(PaymentAccepted, "payment")(answer.json))
  })

/** Why a payment was declined: the answer of its authorization among its actions. */
const declineOf = (call: CheckoutComCall, pspPaymentId: string) => (card: CardDetails) =>
  Effect.gen(function*() {
    const answer = yield* call("payment actions", { method: "GET", path: `${paymentPath(pspPaymentId)}/actions` })
    const actions = answer._tag === "Ok" ? yield* read(PaymentActions, "payment actions")(answer.json) : []
    const authorization = actions.find((action) => action.type === "Authorization" || action.type === "Card Verification")
    return declined(pspPaymentId, authorization?.response_code, authorization?.response_summary, card)
  })

/** `GET /payments/{id}`; without Checkout.com's id (the answer was lost) the resend under our key tells instead. */
export const checkoutComSyncPayment = (call: CheckoutComCall): PaymentConnector["syncPayment"] => ({ pspPaymentId }) =>
  Effect.gen(function*() {
    if (pspPaymentId === null) return AuthorizationOutcome.Unknown()
    const details = yield* retrieve(call, pspPaymentId)
    if (details === undefined) return AuthorizationOutcome.Unknown()
    const outcome = outcomeOfDetails(details)
    return outcome._tag === "Refused" && details.status === "Declined" ? yield* declineOf(call, pspPaymentId)(outcome.card) : outcome
  })

/** The payment as Checkout.com has it now; `undefined` when it has none under this id. */
export const retrieve = (call: CheckoutComCall, pspPaymentId: string) =>
  Effect.gen(function*() {
    const answer = yield* call("retrieve payment", { method: "GET", path: paymentPath(pspPaymentId) })
    if (answer._tag === "Ok") return yield* read(PaymentDetails, "retrieve payment")(answer.json)
    if (answer.status === 404) return undefined
    return yield* new ConnectorOutcomeUnknown({ reason: `Checkout.com retrieve payment answered HTTP ${answer.status}` })
  })
