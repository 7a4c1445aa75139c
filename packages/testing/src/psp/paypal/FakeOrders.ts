import type { PspAnswer } from "../FakePspServer.js"

/**
 * The books of the fake PayPal: orders, their authorizations, captures and refunds, and the
 * answers of Orders v2 and Payments v2 as PayPal's documents describe them (`Prefer:
 * return=representation`: the whole resource).
 */

/** How the payer's funding source behaves once the order is completed (chosen on the approval page). */
export type Funding = "ok" | "declined" | "pending" | "payer_action"

export interface Money {
  readonly currency_code: string
  readonly value: string
}

export interface FakeAuthorization {
  readonly id: string
  status: "CREATED" | "CAPTURED" | "PARTIALLY_CAPTURED" | "VOIDED" | "DENIED" | "PENDING"
  readonly amount: Money
}

export interface FakeCapture {
  readonly id: string
  status: "COMPLETED" | "PENDING" | "DECLINED" | "PARTIALLY_REFUNDED" | "REFUNDED"
  readonly amount: Money
  readonly authorizationId: string | null
  refunded: number
}

export interface FakeRefund {
  readonly id: string
  status: "COMPLETED" | "PENDING" | "FAILED" | "CANCELLED"
  readonly amount: Money
  readonly captureId: string
  readonly customId: string | undefined
}

export interface FakeOrder {
  readonly id: string
  readonly intent: "CAPTURE" | "AUTHORIZE"
  status: "CREATED" | "APPROVED" | "COMPLETED" | "VOIDED" | "PAYER_ACTION_REQUIRED"
  readonly amount: Money
  readonly referenceId: string | undefined
  readonly customId: string | undefined
  readonly returnUrl: string | undefined
  funding: Funding
  readonly authorizations: Array<FakeAuthorization>
  readonly captures: Array<FakeCapture>
}

/** PayPal's decimals per currency where they are not two (its currency codes page). */
const DECIMALS: Readonly<Record<string, number>> = { JPY: 0, HUF: 0, TWD: 0 }
export const decimalsOf = (currency: string) => DECIMALS[currency] ?? 2

/** A money value in hundredths-or-whatever units, or undefined when it has the wrong decimals for its currency. */
export const unitsOf = (money: Money): number | undefined => {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(money.value)
  if (match === null) return undefined
  const decimals = decimalsOf(money.currency_code)
  const fraction = match[2]
  if (decimals === 0) return fraction === undefined ? Number(match[1]) : undefined
  return fraction === undefined || fraction.length !== decimals ? undefined : Number(`${match[1]}${fraction}`)
}

export const moneyOf = (units: number, currency: string): Money => {
  const decimals = decimalsOf(currency)
  if (decimals === 0) return { currency_code: currency, value: String(units) }
  const digits = String(units).padStart(decimals + 1, "0")
  return { currency_code: currency, value: `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` }
}

export const TIME = "2026-01-01T00:00:00Z"

/** Each issue's description, word for word as PayPal's documents enumerate it. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  MISSING_REQUIRED_PARAMETER: "A required field or parameter is missing.",
  INVALID_RESOURCE_ID: "Specified resource ID does not exist. Please check the resource ID and try again.",
  DECIMAL_PRECISION: "If the currency supports decimals, only two decimal place precision is supported.",
  INSTRUMENT_DECLINED: "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
  ORDER_ALREADY_CAPTURED: "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
  ORDER_ALREADY_AUTHORIZED: "Order already authorized.If 'intent=AUTHORIZE' only one authorization per order is allowed.",
  ORDER_NOT_APPROVED:
    "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call.",
  PAYER_ACTION_REQUIRED: "Transaction cannot complete successfully, instruct the buyer to return to PayPal.",
  PAYER_CANNOT_PAY: "Combination of payer and payee settings mean that this buyer cannot pay this seller.",
  TRANSACTION_REFUSED: "The request was refused.",
  MAX_CAPTURE_AMOUNT_EXCEEDED:
    "Capture amount exceeds allowable limit. Please contact customer service or your account manager to request the change to your overage limit. The default overage limit is 115%, which allows the sum of all captures to be up to 115% of the order amount. The ability to over capture is subjected to regulatory approvals.",
  PREVIOUSLY_CAPTURED: "Authorization has been previously captured and hence cannot be voided.",
  PREVIOUSLY_VOIDED: "Authorization has been previously voided and hence cannot be voided again.",
  CAPTURE_FULLY_REFUNDED: "The capture has already been fully refunded",
  REFUND_AMOUNT_EXCEEDED: "The refund amount must be less than or equal to the capture amount that has not yet been refunded."
}

/** PayPal's error answer: `name`, `message` and the issue's description as the documents enumerate them. */
export const paypalError = (status: number, issue: string, given: string, links?: ReadonlyArray<unknown>): PspAnswer => {
  const description = DESCRIPTIONS[issue] ?? given
  const [name, message] = status === 400
    ? ["INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema."]
    : status === 404
    ? ["RESOURCE_NOT_FOUND", "The specified resource does not exist."]
    : status === 401
    ? ["AUTHENTICATION_FAILURE", "Authentication failed due to missing authorization header, or invalid authentication credentials."]
    : ["UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation."]
  return [status, {
    name,
    message,
    debug_id: "f00dcafe12345",
    details: [{ issue, description }],
    ...(links === undefined ? {} : { links })
  }]
}

export const authorizationJson = (order: FakeOrder, authorization: FakeAuthorization) => ({
  id: authorization.id,
  status: authorization.status,
  amount: authorization.amount,
  ...(order.customId === undefined ? {} : { custom_id: order.customId }),
  supplementary_data: { related_ids: { order_id: order.id } },
  create_time: TIME,
  update_time: TIME
})

export const captureJson = (order: FakeOrder, capture: FakeCapture) => ({
  id: capture.id,
  status: capture.status,
  ...(capture.status === "PENDING" ? { status_details: { reason: "PENDING_REVIEW" } } : {}),
  amount: capture.amount,
  final_capture: true,
  ...(order.customId === undefined ? {} : { custom_id: order.customId }),
  supplementary_data: {
    related_ids: { order_id: order.id, ...(capture.authorizationId === null ? {} : { authorization_id: capture.authorizationId }) }
  },
  create_time: TIME,
  update_time: TIME
})

export const refundJson = (refund: FakeRefund) => ({
  id: refund.id,
  status: refund.status,
  amount: refund.amount,
  ...(refund.customId === undefined ? {} : { custom_id: refund.customId }),
  create_time: TIME,
  update_time: TIME
})

/** The order as `GET /v2/checkout/orders/{id}` shows it, its approval link while it waits for the payer. */
export const orderJson = (order: FakeOrder, baseUrl: string) => {
  const payments = {
    ...(order.authorizations.length === 0 ? {} : { authorizations: order.authorizations.map((each) => authorizationJson(order, each)) }),
    ...(order.captures.length === 0 ? {} : { captures: order.captures.map((each) => captureJson(order, each)) })
  }
  const waiting = order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED"
  return {
    id: order.id,
    intent: order.intent,
    status: order.status,
    purchase_units: [{
      ...(order.referenceId === undefined ? {} : { reference_id: order.referenceId }),
      ...(order.customId === undefined ? {} : { custom_id: order.customId }),
      amount: order.amount,
      ...(Object.keys(payments).length === 0 ? {} : { payments })
    }],
    links: [
      { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
      ...(waiting
        ? [{ href: `${baseUrl}/fake/3ds/approve/${order.id}`, rel: order.status === "CREATED" ? "approve" : "payer-action", method: "GET" }]
        : [])
    ],
    create_time: TIME,
    update_time: TIME
  }
}
