import { AuthorizationOutcome, type AuthorizeRequest, ConnectorOutcomeUnknown, failureMessage, type PaymentConnector } from "@orchestrator/core"
import { Effect, Either, Option, Schema } from "effect"
import { type MollieAmount, toMollieAmount } from "./Amounts.js"
import { type MollieCall, path, read } from "./Api.js"
import { failureOfError } from "./Failures.js"
import { outcomeOfPayment } from "./Outcomes.js"
import { Payment, REFERENCE_KEY, referenceOf } from "./Wire.js"

const noCard = { brand: null, last4: null, country: null }

/** Mollie keeps a description of at most 255 characters, and requires one. */
const DESCRIPTION_LIMIT = 255

/** Our payment method types that are Mollie methods of their own name, paid on Mollie's checkout without a token. */
export const MOLLIE_REDIRECT_METHODS: ReadonlyArray<string> = ["ideal", "bancontact"]

/**
 * Mollie cannot call a webhook on the service's own machine: such a `webhookUrl` is refused with the
 * payment, so a service on localhost leaves it out and learns outcomes from the return and follow-ups.
 */
const reachableWebhook = (url: string | undefined) => {
  if (url === undefined) return undefined
  try {
    const host = new URL(url).hostname
    return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]" ? undefined : url
  } catch {
    return undefined
  }
}

/** The body of `POST /v2/payments` (`payment-request`): the card by its Mollie Components token, or a redirect method. */
export const paymentBody = (request: AuthorizeRequest, amount: MollieAmount, webhookUrl: string | undefined) => {
  const { type, token } = request.paymentMethod
  const method = type === "card"
    ? { method: "creditcard", ...(token === null || token === "" ? {} : { cardToken: token }) }
    : { method: type }
  const hook = reachableWebhook(webhookUrl)
  return {
    amount,
    // Required by Mollie: the merchant's, else our payment id (stable across retries of the attempt).
    description: (request.description ?? "").slice(0, DESCRIPTION_LIMIT) || request.paymentId,
    redirectUrl: request.returnUrl,
    ...(hook === undefined ? {} : { webhookUrl: hook }),
    ...method,
    metadata: { [REFERENCE_KEY]: request.reference, payment_id: request.paymentId },
    ...(request.capture ? {} : { captureMode: "manual" })
  }
}

const PaymentList = Schema.Struct({ _embedded: Schema.Struct({ payments: Schema.Array(Payment) }) })

/**
 * The payment created under our reference, found among the profile's newest (Mollie has no search):
 * for an attempt whose answer was lost, when Mollie's memory of the idempotency key may have passed.
 */
export const findByReference = (call: MollieCall, reference: string) =>
  Effect.flatMap(
    call("list payments", { method: "GET", path: "/v2/payments", query: { limit: "250" } }),
    (answer) =>
      answer._tag === "Failed"
        ? new ConnectorOutcomeUnknown({ reason: `Mollie list payments: HTTP ${answer.status}` })
        : Effect.map(
          read(PaymentList, "list payments")(answer.json),
          (list) => Option.fromNullable(list._embedded.payments.find((payment) => referenceOf(payment.metadata) === reference))
        )
  )

/** The payment of `id`, or `None` when Mollie has none. */
export const retrievePayment = (call: MollieCall, id: string) =>
  Effect.flatMap(call("get payment", { method: "GET", path: `/v2/payments/${path(id)}` }), (answer) =>
    answer._tag === "Ok"
      ? Effect.asSome(read(Payment, "get payment")(answer.json))
      : answer.status === 404 || answer.status === 410
      ? Effect.succeedNone
      : new ConnectorOutcomeUnknown({ reason: `Mollie get payment: HTTP ${answer.status}` }))

/**
 * Creates the payment under our reference as `Idempotency-Key` (the same attempt never charges
 * twice), the amount as Mollie's decimal string, and sends the customer to Mollie's checkout.
 */
export const mollieAuthorize = (call: MollieCall, webhookUrl: string | undefined): PaymentConnector["authorize"] => (request) =>
  Effect.gen(function*() {
    const refused = (code: string, providerMessage?: string) =>
      AuthorizationOutcome.Refused({ pspPaymentId: null, code, message: failureMessage(code), retryable: false, card: noCard, providerMessage })
    const { type } = request.paymentMethod
    if (type !== "card" && !MOLLIE_REDIRECT_METHODS.includes(type)) return refused("invalid_payment_method", `Mollie: no method for '${type}'`)
    // Charging without the customer needs a Mollie mandate (a `first` payment), which this connector does not make.
    if (request.offSession) return refused("authentication_required", "Mollie: off-session payments need a mandate")
    const amount = toMollieAmount(request.amount, request.currency)
    if (Either.isLeft(amount)) {
      return AuthorizationOutcome.Refused({ pspPaymentId: null, ...amount.left, retryable: false, card: noCard })
    }
    if (request.resend === true) {
      // A refused list proves nothing: the idempotency key still stands behind the create below.
      const found = yield* Effect.orElseSucceed(findByReference(call, request.reference), () => Option.none<Payment>())
      if (Option.isSome(found)) return outcomeOfPayment(found.value)
    }
    const answer = yield* call("create payment", {
      method: "POST",
      path: "/v2/payments",
      idempotencyKey: request.reference,
      body: paymentBody(request, amount.right, webhookUrl)
    })
    if (answer._tag === "Ok") return outcomeOfPayment(yield* read(Payment, "create payment")(answer.json))
    const failure = failureOfError(answer.error)
    return AuthorizationOutcome.Refused({ pspPaymentId: null, ...failure, card: noCard })
  })

/** The payment by its id, or found by our reference when the create's answer was lost. */
export const mollieSyncPayment = (call: MollieCall): PaymentConnector["syncPayment"] => ({ pspPaymentId, reference }) =>
  Effect.map(
    pspPaymentId === null ? findByReference(call, reference) : retrievePayment(call, pspPaymentId),
    Option.match({ onNone: () => AuthorizationOutcome.Unknown(), onSome: outcomeOfPayment })
  )
