import type * as http from "node:http"
import type { PspAnswer } from "./FakePspServer.js"
import { newSchemeTransactionId } from "./SchemeTransactionIds.js"
import { type FakeStripeContext, stripeError } from "./StripeError.js"

export interface Intent {
  id: string
  amount: number
  amount_received: number
  currency: string
  capture_method: "automatic" | "manual"
  status: string
  metadata: Record<string, string>
  return_url: string | null
  payment_method: string
  last_payment_error: Record<string, unknown> | null
  cancellation_reason: string | null
  refunded: number
  created: number
  /** The scheme's id of the charge, given on the card's details as Stripe does (newer than the 2022-04 document). */
  network_transaction_id?: string
}

/** Stripe's test PaymentMethods (docs.stripe.com/testing) this fake knows, and what each does. */
export const DECLINES: Readonly<Record<string, { code: string; decline_code?: string; message: string }>> = {
  pm_card_chargeDeclined: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds."
  },
  pm_card_chargeDeclinedExpiredCard: { code: "expired_card", message: "Your card has expired." },
  pm_card_chargeDeclinedIncorrectCvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  pm_card_chargeDeclinedProcessingError: {
    code: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit."
  }
}
export const APPROVED = new Set(["pm_card_visa", "pm_card_mastercard", "pm_card_threeDSecure2Required"])

/** A PaymentIntent as Stripe shows it, with its charge once there is one. */
export const intentObject = (intent: Intent, baseUrl: string) => ({
  id: intent.id,
  object: "payment_intent",
  amount: intent.amount,
  amount_capturable: intent.status === "requires_capture" ? intent.amount : 0,
  amount_received: intent.amount_received,
  capture_method: intent.capture_method,
  confirmation_method: "automatic",
  created: intent.created,
  currency: intent.currency,
  livemode: false,
  metadata: intent.metadata,
  payment_method: intent.payment_method,
  payment_method_types: ["card"],
  status: intent.status,
  cancellation_reason: intent.cancellation_reason,
  last_payment_error: intent.last_payment_error,
  next_action: intent.status === "requires_action"
    ? { type: "redirect_to_url", redirect_to_url: { url: `${baseUrl}/fake/3ds/${intent.id}`, return_url: intent.return_url } }
    : null,
  charges: {
    object: "list",
    has_more: false,
    url: `/v1/charges?payment_intent=${intent.id}`,
    data: intent.status === "succeeded" || intent.status === "requires_capture"
      ? [{
        id: `ch_${intent.id.slice(3)}`,
        object: "charge",
        amount: intent.amount,
        amount_captured: intent.amount_received,
        amount_refunded: intent.refunded,
        billing_details: { address: null, email: null, name: null, phone: null },
        captured: intent.status === "succeeded",
        created: intent.created,
        currency: intent.currency,
        disputed: false,
        livemode: false,
        metadata: {},
        paid: true,
        refunded: intent.refunded >= intent.amount_received && intent.refunded > 0,
        refunds: { object: "list", data: [], has_more: false, url: `/v1/charges/ch_${intent.id.slice(3)}/refunds` },
        status: "succeeded",
        payment_intent: intent.id,
        payment_method_details: {
          type: "card",
          card: {
            brand: "visa",
            last4: "4242",
            country: "US",
            exp_month: 12,
            exp_year: 2034,
            funding: "credit",
            ...(intent.network_transaction_id === undefined ? {} : { network_transaction_id: intent.network_transaction_id })
          }
        }
      }]
      : []
  }
})

/** The fake's PaymentIntents, and the charges really made per idempotency key (replays do not count). */
export interface PaymentIntentsState {
  readonly intents: Map<string, Intent>
  readonly charges: Map<string, number>
  /** PaymentMethods made from raw cards: the test PaymentMethod each behaves like. */
  readonly aliases?: ReadonlyMap<string, string>
}

/** `POST /v1/payment_intents`, created and confirmed at once: the test PaymentMethod decides the outcome. */
export const createIntent = (
  state: PaymentIntentsState,
  context: FakeStripeContext,
  form: Record<string, any>,
  idempotencyKey: string | undefined
): PspAnswer => {
  const given = String(form.payment_method ?? "")
  const paymentMethod = state.aliases?.get(given) ?? given
  if (!APPROVED.has(paymentMethod) && DECLINES[paymentMethod] === undefined) {
    return [400, stripeError("invalid_request_error", `No such PaymentMethod: '${paymentMethod}'`, { code: "resource_missing", param: "payment_method" })]
  }
  const intent: Intent = {
    id: context.newId("pi"),
    amount: Number(form.amount),
    amount_received: 0,
    currency: String(form.currency),
    capture_method: form.capture_method === "manual" ? "manual" : "automatic",
    status: "requires_payment_method",
    metadata: (form.metadata ?? {}) as Record<string, string>,
    return_url: form.return_url ?? null,
    payment_method: given,
    last_payment_error: null,
    cancellation_reason: null,
    refunded: 0,
    created: context.now(),
    network_transaction_id: newSchemeTransactionId()
  }
  state.intents.set(intent.id, intent)
  if (idempotencyKey !== undefined) state.charges.set(idempotencyKey, (state.charges.get(idempotencyKey) ?? 0) + 1)
  const decline = DECLINES[paymentMethod]
  if (decline !== undefined) {
    intent.last_payment_error = { type: "card_error", ...decline }
    return [
      402,
      stripeError("card_error", decline.message, {
        code: decline.code,
        ...(decline.decline_code === undefined ? {} : { decline_code: decline.decline_code }),
        payment_intent: intentObject(intent, context.baseUrl())
      })
    ]
  }
  if (paymentMethod === "pm_card_threeDSecure2Required" && form.return_url !== undefined) {
    intent.status = "requires_action"
  } else {
    authorize(intent)
  }
  return [200, intentObject(intent, context.baseUrl())]
}

/** Authorized: captured at once, or held for a manual capture. */
const authorize = (intent: Intent) => {
  intent.status = intent.capture_method === "manual" ? "requires_capture" : "succeeded"
  intent.amount_received = intent.capture_method === "manual" ? 0 : intent.amount
}

/** `GET /v1/payment_intents/search`: only `metadata['key']:'value'` queries. */
export const searchIntents = (state: PaymentIntentsState, context: FakeStripeContext, url: URL): PspAnswer => {
  const wanted = /metadata\['([^']+)'\]:'([^']*)'/.exec(url.searchParams.get("query") ?? "")
  const data = [...state.intents.values()].filter((intent) => wanted !== null && intent.metadata[wanted[1]!] === wanted[2])
  return [200, {
    object: "search_result",
    data: data.map((intent) => intentObject(intent, context.baseUrl())),
    has_more: false,
    url: "/v1/payment_intents/search"
  }]
}

/** `/v1/payment_intents/{id}`: retrieve, capture, cancel; `undefined` for any other operation on it. */
export const actOnIntent = (
  state: PaymentIntentsState,
  context: FakeStripeContext,
  method: string,
  parts: ReadonlyArray<string>,
  form: Record<string, any>
): PspAnswer | undefined => {
  const intent = state.intents.get(parts[2]!)
  if (intent === undefined) {
    return [404, stripeError("invalid_request_error", `No such payment_intent: '${parts[2]}'`, { code: "resource_missing", param: "intent" })]
  }
  const unexpected = (
    action: string
  ): PspAnswer => [
    400,
    stripeError("invalid_request_error", `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`, {
      code: "payment_intent_unexpected_state"
    })
  ]
  if (method === "GET" && parts.length === 3) return [200, intentObject(intent, context.baseUrl())]
  if (method === "POST" && parts[3] === "capture") {
    if (intent.status !== "requires_capture") return unexpected("captured")
    const amount = form.amount_to_capture === undefined ? intent.amount : Number(form.amount_to_capture)
    if (amount > intent.amount) {
      return [400, stripeError("invalid_request_error", "The amount to capture exceeds the authorized amount.", { code: "amount_too_large" })]
    }
    intent.status = "succeeded"
    intent.amount_received = amount
    return [200, intentObject(intent, context.baseUrl())]
  }
  if (method === "POST" && parts[3] === "cancel") {
    if (!["requires_payment_method", "requires_capture", "requires_action", "requires_confirmation"].includes(intent.status)) {
      return unexpected("canceled")
    }
    intent.status = "canceled"
    intent.cancellation_reason = form.cancellation_reason ?? null
    return [200, intentObject(intent, context.baseUrl())]
  }
  return undefined
}

/** The issuer's 3DS page: `?result=fail` fails it; the customer goes back to the return_url as Stripe sends them. */
export const completeChallenge = (state: PaymentIntentsState, url: URL, response: http.ServerResponse) => {
  const intent = state.intents.get(url.pathname.split("/")[3] ?? "")
  if (intent === undefined || intent.status !== "requires_action") {
    response.writeHead(404).end()
    return
  }
  if (url.searchParams.get("result") === "fail") {
    intent.status = "requires_payment_method"
    intent.last_payment_error = {
      type: "invalid_request_error",
      code: "payment_intent_authentication_failure",
      message: "We are unable to authenticate your payment method."
    }
  } else {
    authorize(intent)
  }
  const back = new URL(intent.return_url!)
  back.searchParams.set("payment_intent", intent.id)
  back.searchParams.set("payment_intent_client_secret", `${intent.id}_secret_fake`)
  response.writeHead(302, { location: back.toString() }).end()
}
