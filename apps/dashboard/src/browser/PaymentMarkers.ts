import type { Payment } from "@orchestrator/core"

/**
 * What a payment's status alone does not say, read from its amounts: less captured than
 * authorized, and money given back. The API's status stays the seed's; these are the dashboard's.
 */
export type PaymentMarker = "partially_captured" | "refunded" | "partially_refunded"

export const paymentMarkers = (
  payment: Pick<Payment, "amount" | "amount_captured" | "amount_refunded">
): ReadonlyArray<PaymentMarker> => [
  ...(payment.amount_captured > 0 && payment.amount_captured < payment.amount ? ["partially_captured" as const] : []),
  ...(payment.amount_refunded <= 0
    ? []
    : [payment.amount_refunded >= payment.amount_captured ? "refunded" as const : "partially_refunded" as const])
]
