import type { PspAnswer } from "./FakePspServer.js"
import type { Intent } from "./FakeStripePaymentIntents.js"
import { type FakeStripeContext, stripeError } from "./StripeError.js"

export interface RefundRecord {
  id: string
  amount: number
  currency: string
  payment_intent: string
  status: string
  metadata: Record<string, string>
  created: number
}

/** A refund as Stripe shows it. */
export const refundObject = (refund: RefundRecord) => ({
  id: refund.id,
  object: "refund",
  amount: refund.amount,
  created: refund.created,
  currency: refund.currency,
  metadata: refund.metadata,
  payment_intent: refund.payment_intent,
  status: refund.status,
  reason: null
})

/** `POST /v1/refunds`: of a succeeded PaymentIntent, at most what is left; `pending` until settled when the fake says so. */
export const createRefund = (
  intents: ReadonlyMap<string, Intent>,
  refunds: Map<string, RefundRecord>,
  context: FakeStripeContext & { readonly pendingRefunds: boolean },
  form: Record<string, any>
): PspAnswer => {
  const intent = intents.get(String(form.payment_intent ?? ""))
  if (intent === undefined || intent.status !== "succeeded") {
    return [400, stripeError("invalid_request_error", "This PaymentIntent has no successful charge to refund.", { code: "charge_not_refundable" })]
  }
  const amount = form.amount === undefined ? intent.amount_received - intent.refunded : Number(form.amount)
  if (amount > intent.amount_received - intent.refunded) {
    return [
      400,
      stripeError("invalid_request_error", "Refund amount is greater than unrefunded amount on charge.", { code: "amount_too_large", param: "amount" })
    ]
  }
  intent.refunded += amount
  const refund: RefundRecord = {
    id: context.newId("re"),
    amount,
    currency: intent.currency,
    payment_intent: intent.id,
    status: context.pendingRefunds ? "pending" : "succeeded",
    metadata: (form.metadata ?? {}) as Record<string, string>,
    created: context.now()
  }
  refunds.set(refund.id, refund)
  return [200, refundObject(refund)]
}

/** `GET /v1/refunds?payment_intent=…` and `GET /v1/refunds/{id}`. */
export const readRefunds = (refunds: ReadonlyMap<string, RefundRecord>, url: URL, id: string | undefined): PspAnswer => {
  if (id === undefined) {
    const data = [...refunds.values()].filter((refund) => refund.payment_intent === url.searchParams.get("payment_intent"))
    return [200, { object: "list", data: data.map(refundObject), has_more: false, url: "/v1/refunds" }]
  }
  const refund = refunds.get(id)
  return refund === undefined
    ? [404, stripeError("invalid_request_error", `No such refund: '${id}'`, { code: "resource_missing", param: "id" })]
    : [200, refundObject(refund)]
}
