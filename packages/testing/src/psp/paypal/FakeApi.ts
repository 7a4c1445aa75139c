import type { PspAnswer } from "../FakePspServer.js"
import {
  authorizationJson,
  captureJson,
  type FakeOrder,
  type FakeRefund,
  type Money,
  moneyOf,
  orderJson,
  paypalError,
  refundJson,
  unitsOf
} from "./FakeOrders.js"

/** What the fake PayPal keeps between requests. */
export interface PayPalState {
  readonly orders: Map<string, FakeOrder>
  readonly refunds: Map<string, FakeRefund>
  /** Orders created per PayPal-Request-Id: one per key, however often it is sent. */
  readonly ordersPerRequestId: Map<string, number>
  readonly baseUrl: () => string
  nextId: number
}

/** PayPal's ids: upper-case letters and digits, at most 20 (the documents' `related_ids` pattern). */
const newId = (state: PayPalState, prefix: string) => `${prefix}${String(state.nextId++).padStart(8, "0")}FAKE`

const findCapture = (state: PayPalState, id: string) => {
  for (const order of state.orders.values()) {
    const capture = order.captures.find((each) => each.id === id)
    if (capture !== undefined) return { order, capture }
  }
  return undefined
}

const findAuthorization = (state: PayPalState, id: string) => {
  for (const order of state.orders.values()) {
    const authorization = order.authorizations.find((each) => each.id === id)
    if (authorization !== undefined) return { order, authorization }
  }
  return undefined
}

const createOrder = (state: PayPalState, body: any, requestId: string | undefined): PspAnswer => {
  const unit = body?.purchase_units?.[0]
  const amount: Money | undefined = unit?.amount
  if (body?.intent !== "CAPTURE" && body?.intent !== "AUTHORIZE") return paypalError(400, "MISSING_REQUIRED_PARAMETER", "intent")
  if (amount === undefined || unitsOf(amount) === undefined) {
    return paypalError(422, "DECIMAL_PRECISION", "The value of the field should not have more decimals than the currency supports.")
  }
  const order: FakeOrder = {
    id: newId(state, "5O"),
    intent: body.intent,
    status: "CREATED",
    amount,
    referenceId: unit.reference_id,
    customId: unit.custom_id,
    returnUrl: body?.payment_source?.paypal?.experience_context?.return_url,
    funding: "ok",
    authorizations: [],
    captures: []
  }
  state.orders.set(order.id, order)
  if (requestId !== undefined) state.ordersPerRequestId.set(requestId, (state.ordersPerRequestId.get(requestId) ?? 0) + 1)
  return [201, orderJson(order, state.baseUrl())]
}

/** `POST /v2/checkout/orders/{id}/capture|authorize`: what the payer's funding source does decides. */
const completeOrder = (state: PayPalState, order: FakeOrder, action: "capture" | "authorize"): PspAnswer => {
  if ((action === "capture") !== (order.intent === "CAPTURE")) {
    return paypalError(422, "ACTION_DOES_NOT_MATCH_INTENT", "The action does not match the order's intent.")
  }
  if (order.status === "COMPLETED") {
    return paypalError(422, action === "capture" ? "ORDER_ALREADY_CAPTURED" : "ORDER_ALREADY_AUTHORIZED", "Already completed.")
  }
  if (order.status !== "APPROVED") return paypalError(422, "ORDER_NOT_APPROVED", "The payer has not approved the order.")
  switch (order.funding) {
    case "declined":
      return paypalError(422, "INSTRUMENT_DECLINED", "The instrument presented was either declined by the processor or bank.")
    case "payer_action":
      order.status = "PAYER_ACTION_REQUIRED"
      return paypalError(422, "PAYER_ACTION_REQUIRED", "The payer needs to complete an action.", [
        { href: `${state.baseUrl()}/fake/3ds/approve/${order.id}`, rel: "payer-action", method: "GET" }
      ])
    default:
      break
  }
  order.status = "COMPLETED"
  if (action === "capture") {
    order.captures.push({
      id: newId(state, "3C"),
      status: order.funding === "pending" ? "PENDING" : "COMPLETED",
      amount: order.amount,
      authorizationId: null,
      refunded: 0
    })
  } else {
    order.authorizations.push({ id: newId(state, "0A"), status: order.funding === "pending" ? "PENDING" : "CREATED", amount: order.amount })
  }
  return [201, orderJson(order, state.baseUrl())]
}

const captureAuthorization = (state: PayPalState, id: string, body: any): PspAnswer => {
  const found = findAuthorization(state, id)
  if (found === undefined) return paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  const { authorization, order } = found
  if (authorization.status === "VOIDED") return paypalError(422, "PREVIOUSLY_VOIDED", "The authorization was voided.")
  if (authorization.status !== "CREATED") return paypalError(422, "PREVIOUSLY_CAPTURED", "The authorization was captured.")
  const amount: Money = body?.amount ?? authorization.amount
  const units = unitsOf(amount)
  if (units === undefined) return paypalError(422, "DECIMAL_PRECISION", "Wrong decimals for the currency.")
  if (units > unitsOf(authorization.amount)!) return paypalError(422, "MAX_CAPTURE_AMOUNT_EXCEEDED", "More than authorized.")
  authorization.status = units === unitsOf(authorization.amount) || body?.final_capture === true ? "CAPTURED" : "PARTIALLY_CAPTURED"
  const capture = { id: newId(state, "3C"), status: "COMPLETED" as const, amount, authorizationId: authorization.id, refunded: 0 }
  order.captures.push(capture)
  return [201, captureJson(order, capture)]
}

const voidAuthorization = (state: PayPalState, id: string): PspAnswer => {
  const found = findAuthorization(state, id)
  if (found === undefined) return paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  if (found.authorization.status === "VOIDED") return paypalError(422, "PREVIOUSLY_VOIDED", "Already voided.")
  if (found.authorization.status !== "CREATED") return paypalError(422, "PREVIOUSLY_CAPTURED", "Already captured.")
  found.authorization.status = "VOIDED"
  found.order.status = "VOIDED"
  return [200, authorizationJson(found.order, found.authorization)]
}

const refundCapture = (state: PayPalState, id: string, body: any): PspAnswer => {
  const found = findCapture(state, id)
  if (found === undefined) return paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  const { capture } = found
  const captured = unitsOf(capture.amount)!
  const amount: Money = body?.amount ?? moneyOf(captured - capture.refunded, capture.amount.currency_code)
  const units = unitsOf(amount)
  if (units === undefined) return paypalError(422, "DECIMAL_PRECISION", "Wrong decimals for the currency.")
  if (capture.refunded >= captured) return paypalError(422, "CAPTURE_FULLY_REFUNDED", "The capture is fully refunded.")
  if (units > captured - capture.refunded) return paypalError(422, "REFUND_AMOUNT_EXCEEDED", "More than is left to refund.")
  capture.refunded += units
  capture.status = capture.refunded === captured ? "REFUNDED" : "PARTIALLY_REFUNDED"
  const refund: FakeRefund = { id: newId(state, "1R"), status: "COMPLETED", amount, captureId: capture.id, customId: body?.custom_id }
  state.refunds.set(refund.id, refund)
  return [201, refundJson(refund)]
}

/** One request to Orders v2 or Payments v2. */
export const handlePayPal = (state: PayPalState, method: string, pathname: string, body: any, requestId: string | undefined): PspAnswer => {
  const parts = pathname.split("/").filter((part) => part !== "").map(decodeURIComponent)
  const notFound = paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  if (parts[0] !== "v2") return notFound
  if (parts[1] === "checkout" && parts[2] === "orders") {
    if (parts.length === 3 && method === "POST") return createOrder(state, body, requestId)
    const order = state.orders.get(parts[3] ?? "")
    if (order === undefined) return notFound
    if (parts.length === 4 && method === "GET") return [200, orderJson(order, state.baseUrl())]
    if (parts.length === 5 && method === "POST" && (parts[4] === "capture" || parts[4] === "authorize")) {
      return completeOrder(state, order, parts[4])
    }
    return notFound
  }
  if (parts[1] === "payments") {
    const [kind, id, action] = [parts[2], parts[3] ?? "", parts[4]]
    if (kind === "authorizations" && action === "capture" && method === "POST") return captureAuthorization(state, id, body)
    if (kind === "authorizations" && action === "void" && method === "POST") return voidAuthorization(state, id)
    if (kind === "captures" && action === "refund" && method === "POST") return refundCapture(state, id, body)
    if (kind === "refunds" && action === undefined && method === "GET") {
      const refund = state.refunds.get(id)
      return refund === undefined ? notFound : [200, refundJson(refund)]
    }
  }
  return notFound
}
