import {
  AuthorizationOutcome,
  CaptureOutcome,
  type CardDetails,
  type ConnectorError,
  ConnectorOutcomeUnknown,
  failureMessage,
  ModificationOutcome,
  type PaymentConnector,
  type RawCard
} from "@orchestrator/core"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { fromStripeAmount, stripeCurrency, toStripeAmount } from "./StripeAmounts.js"
import { path, read, retrieveIntent, searchByReference, type StripeCall } from "./StripeApi.js"
import { failureOf, type StripeFailure } from "./StripeErrors.js"
import { outcomeOfIntent, PaymentIntent, REFERENCE_KEY } from "./StripeObjects.js"

const noCard: CardDetails = { brand: null, last4: null, country: null }

/** What we read of a PaymentMethod Stripe made: its id. */
const StripePaymentMethodId = Schema.Struct({ id: Schema.String })

/**
 * A card from the service's vault as a Stripe PaymentMethod (`POST /v1/payment_methods` with
 * `card[…]`, for a PCI-compliant sender): its id, or why Stripe refused the card. Under its own
 * idempotency key, derived from the attempt's, so a resend makes no second one.
 */
const stripePaymentMethodOf = (
  call: StripeCall,
  reference: string,
  card: RawCard
): Effect.Effect<Either.Either<string | null, StripeFailure>, ConnectorError> =>
  Effect.gen(function*() {
    const answer = yield* call("create payment method", {
      method: "POST",
      path: "/v1/payment_methods",
      idempotencyKey: `${reference}-payment-method`,
      form: {
        type: "card",
        card: {
          number: Redacted.value(card.number),
          exp_month: card.expMonth,
          exp_year: card.expYear,
          cvc: card.cvc === null ? undefined : Redacted.value(card.cvc)
        },
        billing_details: card.holderName === null ? undefined : { name: card.holderName }
      }
    })
    if (answer._tag === "Ok") return Either.right((yield* read(StripePaymentMethodId, "create payment method")(answer.json)).id)
    return Either.left(failureOf(answer.error, answer.status))
  })

/** Creates and confirms a PaymentIntent under our reference, looking first for one sent before on a resend. */
export const stripeAuthorize = (call: StripeCall): PaymentConnector["authorize"] => (request) =>
  Effect.gen(function*() {
    const amount = toStripeAmount(request.amount, request.currency)
    if (Either.isLeft(amount)) {
      return AuthorizationOutcome.Refused({ pspPaymentId: null, ...amount.left, retryable: false, card: noCard })
    }
    // Stripe forgets idempotency keys after 24 hours: an attempt sent before is looked for first,
    // so a resend after that never creates a second intent. (Searchable within about a minute;
    // reconciliation waits longer than that.)
    if (request.resend === true) {
      const found = Option.flatten(yield* searchByReference(call, request.reference))
      if (Option.isSome(found)) return outcomeOfIntent(found.value)
    }
    const paymentMethod = request.vaultCard === undefined
      ? Either.right<string | null>(request.paymentMethod.token)
      : yield* stripePaymentMethodOf(call, request.reference, yield* request.vaultCard.reveal)
    if (Either.isLeft(paymentMethod)) return AuthorizationOutcome.Refused({ pspPaymentId: null, ...paymentMethod.left, card: noCard })
    const answer = yield* call("create payment intent", {
      method: "POST",
      path: "/v1/payment_intents",
      idempotencyKey: request.reference,
      form: {
        amount: amount.right,
        currency: stripeCurrency(request.currency),
        payment_method: paymentMethod.right,
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
  })

/** The intent by its id, or found by our reference when the create's answer was lost. */
export const stripeSyncPayment = (call: StripeCall): PaymentConnector["syncPayment"] => ({ pspPaymentId, reference }) =>
  Effect.gen(function*() {
    if (pspPaymentId !== null) {
      const intent = yield* retrieveIntent(call, pspPaymentId)
      return intent._tag === "Some" ? outcomeOfIntent(intent.value) : AuthorizationOutcome.Unknown()
    }
    // No id: the answer to the create was lost. Search finds the intent by our reference.
    const searched = yield* searchByReference(call, reference)
    if (Option.isNone(searched)) {
      return yield* new ConnectorOutcomeUnknown({ reason: "Stripe search payment intents: refused" })
    }
    return Option.isNone(searched.value) ? AuthorizationOutcome.Unknown() : outcomeOfIntent(searched.value.value)
  })

/** Captures an authorized intent; a capture sent before under this reference with another amount stands. */
export const stripeCapture = (call: StripeCall): PaymentConnector["capture"] => ({ amount, currency, pspPaymentId, reference }) =>
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
      ? Option.getOrUndefined(yield* retrieveIntent(call, pspPaymentId))
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
  })

/** Cancels an intent under our reference. */
export const stripeCancel = (call: StripeCall): PaymentConnector["cancel"] => ({ pspPaymentId, reference }) =>
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
  )
