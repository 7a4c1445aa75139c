import { AuthorizationOutcome, type AuthorizeRequest, ConnectorOutcomeUnknown, failureMessage, type PaymentConnector } from "@orchestrator/core"
import { Effect, Either, Option } from "effect"
import { toPayPalMoney } from "./Amounts.js"
import { path, type PayPalCall, read } from "./Api.js"
import { failureOf, issueOf } from "./Errors.js"
import { noCard, outcomeOfOrder } from "./Outcomes.js"
import { approvalLinkOf, Order } from "./Wire.js"

/** The payment method this connector takes: the payer's PayPal wallet, approved at PayPal. */
export const PAYPAL_METHOD = "paypal"

/** PayPal's limit on a purchase unit's description. */
const DESCRIPTION_LIMIT = 127

/** The order created for `request`: what PayPal documents for a wallet payment approved by redirect. */
export const orderRequestOf = (request: AuthorizeRequest, amount: { currency_code: string; value: string }) => ({
  intent: request.capture ? "CAPTURE" : "AUTHORIZE",
  purchase_units: [{
    // Our reference twice: `reference_id` names the unit, `custom_id` comes back on its captures,
    // authorizations and their webhooks.
    reference_id: request.reference,
    custom_id: request.reference,
    amount,
    ...(request.description === null || request.description === "" ? {} : { description: request.description.slice(0, DESCRIPTION_LIMIT) })
  }],
  payment_source: {
    paypal: {
      experience_context: {
        // Back to us either way: the payment is settled by asking PayPal how the order stands.
        return_url: request.returnUrl,
        cancel_url: request.returnUrl,
        user_action: "PAY_NOW",
        shipping_preference: "NO_SHIPPING"
      }
    }
  }
})

/** The order of `id`, or `None` when PayPal has none. */
export const retrieveOrder = (call: PayPalCall, id: string) =>
  Effect.flatMap(call("show order", { method: "GET", path: `/v2/checkout/orders/${path(id)}` }), (answer) =>
    answer._tag === "Ok"
      ? Effect.asSome(read(Order, "show order")(answer.json))
      : answer.status === 404
      ? Effect.succeedNone
      : new ConnectorOutcomeUnknown({ reason: `PayPal show order: HTTP ${answer.status}` }))

/**
 * Creates the order the payer approves at PayPal, under our reference as `PayPal-Request-Id`: sent
 * again (a lost answer, reconciliation), PayPal answers the same order, so one payment never makes two.
 */
export const paypalAuthorize = (call: PayPalCall): PaymentConnector["authorize"] => (request) =>
  Effect.gen(function*() {
    if (request.paymentMethod.type !== PAYPAL_METHOD) {
      return AuthorizationOutcome.Refused({
        pspPaymentId: null,
        code: "invalid_payment_method",
        message: failureMessage("invalid_payment_method"),
        retryable: false,
        card: noCard
      })
    }
    const amount = toPayPalMoney(request.amount, request.currency)
    if (Either.isLeft(amount)) {
      return AuthorizationOutcome.Refused({ pspPaymentId: null, ...amount.left, retryable: false, card: noCard })
    }
    const answer = yield* call("create order", {
      method: "POST",
      path: "/v2/checkout/orders",
      requestId: request.reference,
      body: orderRequestOf(request, amount.right)
    })
    if (answer._tag === "Ok") return outcomeOfOrder(yield* read(Order, "create order")(answer.json))
    return AuthorizationOutcome.Refused({ pspPaymentId: null, ...failureOf(answer.error, answer.status), card: noCard })
  })

/**
 * Completes an order the payer approved: captured (intent CAPTURE) or authorized (AUTHORIZE), under
 * a PayPal-Request-Id of our reference, so that two returns at once complete it once.
 */
const completeOrder = (call: PayPalCall, order: Order, reference: string) =>
  Effect.gen(function*() {
    const action = order.intent === "AUTHORIZE" ? "authorize" : "capture"
    const answer = yield* call(`${action} order`, {
      method: "POST",
      path: `/v2/checkout/orders/${path(order.id)}/${action}`,
      requestId: `${reference}-${action}`,
      body: {}
    })
    if (answer._tag === "Ok") return outcomeOfOrder(yield* read(Order, `${action} order`)(answer.json))
    const issue = issueOf(answer.error)
    if (issue === "ORDER_ALREADY_CAPTURED" || issue === "ORDER_ALREADY_AUTHORIZED") {
      const again = yield* retrieveOrder(call, order.id)
      return Option.match(again, { onNone: () => AuthorizationOutcome.Unknown(), onSome: outcomeOfOrder })
    }
    // PayPal wants the payer back (another funding source, 3DS): to the order's payer-action link.
    const link = approvalLinkOf(answer.error.links) ?? approvalLinkOf(order.links)
    if (issue === "PAYER_ACTION_REQUIRED" && link !== undefined) {
      return AuthorizationOutcome.ActionRequired({ pspPaymentId: order.id, redirectUrl: link, card: noCard })
    }
    return AuthorizationOutcome.Refused({ pspPaymentId: order.id, ...failureOf(answer.error, answer.status), card: noCard })
  })

/**
 * How the order stands; one the payer approved is completed here (after their return, or when
 * reconciliation or a webhook's news asks). Without the order's id (the create's answer was lost)
 * there is nothing to look up: `Unknown`, and the create is sent again under the same request id.
 */
export const paypalSyncPayment = (call: PayPalCall): PaymentConnector["syncPayment"] => ({ pspPaymentId, reference }) =>
  Effect.gen(function*() {
    if (pspPaymentId === null) return AuthorizationOutcome.Unknown()
    const found = yield* retrieveOrder(call, pspPaymentId)
    if (Option.isNone(found)) return AuthorizationOutcome.Unknown()
    return found.value.status === "APPROVED" ? yield* completeOrder(call, found.value, reference) : outcomeOfOrder(found.value)
  })
