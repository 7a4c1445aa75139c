import type { PspAnswer } from "../FakePspServer.js"
import {
  captureJson,
  chargebackJson,
  decimalOf,
  type FakeMollieCapture,
  type FakeMollieChargeback,
  type FakeMolliePayment,
  type FakeMollieRefund,
  listJson,
  minorOf,
  type MollieAmount,
  mollieError,
  paymentJson,
  refundJson
} from "./Objects.js"

/** The fake's books: what was created, and how many payments each idempotency key made. */
export interface MollieState {
  readonly origin: () => string
  readonly payments: Map<string, FakeMolliePayment>
  readonly refunds: Array<FakeMollieRefund>
  readonly captures: Array<FakeMollieCapture>
  readonly chargebacks: Array<FakeMollieChargeback>
  readonly counts: Map<string, number>
  /** What a capture answers: `succeeded` at once, or `pending` (settled later by the test). */
  captureStatus: "succeeded" | "pending"
  sequence: number
}

const CREATED_AT = "2026-11-27T01:00:00+00:00"

/** Mollie's documented card test tokens have no fixed names: the fake's tokens say the outcome. */
const CARDS: Readonly<Record<string, { label: string; last4: string; country: string }>> = {
  visa: { label: "Visa", last4: "4242", country: "NL" },
  mastercard: { label: "Mastercard", last4: "4444", country: "BE" }
}

/**
 * Card tokens of the fake (Mollie Components hand the browser a `tkn_…`):
 * - `tkn_paid`: no 3DS; paid at once (authorized with `captureMode: manual`);
 * - `tkn_declined`, `tkn_insufficient_funds`, `tkn_expired_card`: failed at once with that `statusReason`;
 * - `tkn_pending`: Mollie is still processing (`pending`), settled later by the test;
 * - any other `tkn_…`: 3DS on Mollie's checkout page (`open` with `_links.checkout`).
 * Methods without a token (iDEAL, Bancontact) are always paid on the checkout page.
 */
const createPayment = (state: MollieState, mode: "test" | "live", body: any, key: string | undefined): PspAnswer => {
  for (const field of ["amount", "description", "redirectUrl"]) {
    if (body?.[field] === undefined || body[field] === "") return mollieError(422, "Unprocessable Entity", `The '${field}' field is required.`, field)
  }
  const minor = minorOf(body.amount)
  if (minor === undefined || minor <= 0) {
    return mollieError(422, "Unprocessable Entity", "The amount contains an invalid value or the wrong number of decimals.", "amount.value")
  }
  if (body.method === "creditcard" && body.cardToken !== undefined && !/^tkn_/.test(body.cardToken)) {
    return mollieError(422, "Unprocessable Entity", "The card token is invalid.", "cardToken")
  }
  if (body.captureMode === "manual" && body.method !== "creditcard") {
    return mollieError(422, "Unprocessable Entity", "Manual capture is not supported for this method.", "captureMode")
  }
  const id = `tr_Fake${String(++state.sequence).padStart(5, "0")}`
  if (key !== undefined) state.counts.set(key, (state.counts.get(key) ?? 0) + 1)
  const token: string = body.cardToken ?? ""
  const payment: FakeMolliePayment = {
    id,
    mode,
    createdAt: CREATED_AT,
    amount: body.amount as MollieAmount,
    description: body.description,
    method: body.method ?? null,
    redirectUrl: body.redirectUrl,
    webhookUrl: body.webhookUrl ?? null,
    metadata: body.metadata ?? null,
    captureMode: body.captureMode === "manual" ? "manual" : "automatic",
    status: "open",
    statusReason: null,
    captured: 0,
    refunded: 0,
    card: null
  }
  state.payments.set(id, payment)
  const failedWith = /^tkn_(declined|insufficient_funds|expired_card)$/.exec(token)?.[1]
  if (token === "tkn_paid") settle(payment, payment.captureMode === "manual" ? "authorized" : "paid")
  else if (failedWith !== undefined) settle(payment, "failed", failedWith === "declined" ? "do_not_honor" : failedWith)
  else if (token === "tkn_pending") payment.status = "pending"
  return [201, paymentJson(state.origin(), payment)]
}

/** Moves a payment as Mollie would after the customer, the issuer or time acted. */
export const settle = (payment: FakeMolliePayment, status: FakeMolliePayment["status"], reasonCode?: string) => {
  payment.status = status
  if (payment.method === "creditcard" && status !== "canceled" && status !== "expired") payment.card = CARDS.visa!
  if (status === "paid") payment.captured = minorOf(payment.amount) ?? 0
  payment.statusReason = status === "failed"
    ? { code: reasonCode ?? "do_not_honor", message: "The issuer declined the payment (fake Mollie)." }
    : null
}

const notFound = (what: string) => mollieError(404, "Not Found", `No ${what} exists with this token.`)

const capture = (state: MollieState, payment: FakeMolliePayment, body: any): PspAnswer => {
  if (payment.status !== "authorized") return mollieError(422, "Unprocessable Entity", "The payment cannot be captured.")
  const amount: MollieAmount = body?.amount ?? payment.amount
  const minor = minorOf(amount)
  const total = minorOf(payment.amount) ?? 0
  if (minor === undefined || minor <= 0 || minor > total || amount.currency !== payment.amount.currency) {
    return mollieError(422, "Unprocessable Entity", "The capture amount is invalid.", "amount")
  }
  const created: FakeMollieCapture = {
    id: `cpt_Fake${String(++state.sequence).padStart(5, "0")}`,
    paymentId: payment.id,
    amount,
    metadata: body?.metadata ?? null,
    createdAt: CREATED_AT,
    status: state.captureStatus
  }
  state.captures.push(created)
  if (created.status === "succeeded") {
    payment.status = "paid"
    payment.captured = minor
  }
  return [201, captureJson(state.origin(), payment.mode, created)]
}

const refund = (state: MollieState, payment: FakeMolliePayment, body: any): PspAnswer => {
  if (payment.status !== "paid") return mollieError(422, "Unprocessable Entity", "The payment cannot be refunded.")
  const minor = body?.amount === undefined ? undefined : minorOf(body.amount)
  if (minor === undefined || minor <= 0 || body.amount.currency !== payment.amount.currency) {
    return mollieError(422, "Unprocessable Entity", "The refund amount is invalid.", "amount")
  }
  if (minor > payment.captured - payment.refunded) {
    return mollieError(422, "Unprocessable Entity", "The amount is higher than the amount that remains refundable.", "amount")
  }
  payment.refunded += minor
  const created: FakeMollieRefund = {
    id: `re_Fake${String(++state.sequence).padStart(5, "0")}`,
    paymentId: payment.id,
    amount: decimalOf(minor, payment.amount.currency),
    description: body.description ?? "",
    metadata: body.metadata ?? null,
    createdAt: CREATED_AT,
    status: "pending"
  }
  state.refunds.push(created)
  return [201, refundJson(state.origin(), payment.mode, created)]
}

/** One request to the fake's API, after its credentials were checked. */
export const handleMollie = (state: MollieState, mode: "test" | "live", method: string, url: URL, text: string, key: string | undefined): PspAnswer => {
  const body = text === "" ? {} : JSON.parse(text)
  const origin = state.origin()
  const parts = url.pathname.split("/").filter((part) => part !== "")
  if (parts[0] !== "v2" || parts[1] !== "payments") return notFound("resource")
  if (parts.length === 2) {
    if (method === "POST") return createPayment(state, mode, body, key)
    const newest = [...state.payments.values()].filter((each) => each.mode === mode).reverse()
    const limit = Number(url.searchParams.get("limit") ?? "50")
    return [200, listJson(origin, url.pathname, "payments", newest.slice(0, limit).map((each) => paymentJson(origin, each)))]
  }
  const payment = state.payments.get(decodeURIComponent(parts[2]!))
  if (payment === undefined || payment.mode !== mode) return notFound("payment")
  const action = parts[3]
  if (action === undefined) {
    if (method === "GET") return [200, paymentJson(origin, payment)]
    if (method !== "DELETE") return mollieError(405, "Method Not Allowed", "The method is not allowed.")
    if (payment.status !== "open") return mollieError(422, "Unprocessable Entity", "The payment cannot be canceled.")
    settle(payment, "canceled")
    return [200, paymentJson(origin, payment)]
  }
  if (action === "release-authorization" && method === "POST") {
    if (payment.status !== "authorized") return mollieError(422, "Unprocessable Entity", "The authorization cannot be released.")
    settle(payment, "canceled")
    return [202, undefined]
  }
  if (action === "captures") {
    if (method === "POST") return capture(state, payment, body)
    const ours = state.captures.filter((each) => each.paymentId === payment.id)
    return [200, listJson(origin, url.pathname, "captures", ours.map((each) => captureJson(origin, mode, each)))]
  }
  if (action === "refunds") {
    if (method === "POST") return refund(state, payment, body)
    const ours = state.refunds.filter((each) => each.paymentId === payment.id)
    if (parts[4] === undefined) return [200, listJson(origin, url.pathname, "refunds", ours.map((each) => refundJson(origin, mode, each)))]
    const found = ours.find((each) => each.id === decodeURIComponent(parts[4]!))
    return found === undefined ? notFound("refund") : [200, refundJson(origin, mode, found)]
  }
  if (action === "chargebacks" && method === "GET") {
    const ours = state.chargebacks.filter((each) => each.paymentId === payment.id)
    if (parts[4] === undefined) return [200, listJson(origin, url.pathname, "chargebacks", ours.map((each) => chargebackJson(origin, each)))]
    const found = ours.find((each) => each.id === decodeURIComponent(parts[4]!))
    return found === undefined ? notFound("chargeback") : [200, chargebackJson(origin, found)]
  }
  return notFound("resource")
}
