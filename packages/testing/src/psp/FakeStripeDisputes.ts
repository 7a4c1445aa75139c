import type { PspAnswer } from "./FakePspServer.js"
import type { StripeFileRecord } from "./FakeStripeFiles.js"
import type { Intent } from "./FakeStripePaymentIntents.js"
import { type FakeStripeContext, missing, stripeErrorAnswer } from "./StripeError.js"

export interface DisputeRecord {
  id: string
  amount: number
  currency: string
  charge: string
  payment_intent: string
  reason: string
  status: string
  evidence: Record<string, string>
  due_by: number
  submission_count: number
  created: number
}

/** Stripe's dispute fee: 15.00 in the dispute's currency. */
const FEE = 1500

/** A dispute as Stripe shows it (API 2020-08-27: evidence fields, `evidence_details`, the balance transactions of the withdrawal). */
export const disputeObject = (dispute: DisputeRecord) => ({
  id: dispute.id,
  object: "dispute",
  amount: dispute.amount,
  balance_transactions: [{
    id: `txn_${dispute.id.slice(3)}`,
    object: "balance_transaction",
    amount: -dispute.amount,
    available_on: dispute.created,
    created: dispute.created,
    currency: dispute.currency,
    description: `Chargeback withdrawal for ${dispute.charge}`,
    fee: FEE,
    fee_details: [{ amount: FEE, application: null, currency: dispute.currency, description: "Dispute fee", type: "stripe_fee" }],
    net: -dispute.amount - FEE,
    reporting_category: "dispute",
    source: dispute.id,
    status: "available",
    type: "adjustment"
  }],
  charge: dispute.charge,
  created: dispute.created,
  currency: dispute.currency,
  evidence: dispute.evidence,
  evidence_details: {
    due_by: dispute.due_by,
    has_evidence: Object.keys(dispute.evidence).length > 0,
    past_due: false,
    submission_count: dispute.submission_count
  },
  is_charge_refundable: false,
  livemode: false,
  metadata: {},
  payment_intent: dispute.payment_intent,
  reason: dispute.reason,
  status: dispute.status
})

/** Opens a dispute on a succeeded PaymentIntent, as a cardholder's bank does: `needs_response` (`warning_needs_response` for an inquiry). */
export const openDispute = (
  context: FakeStripeContext,
  disputes: Map<string, DisputeRecord>,
  intent: Intent,
  options: { readonly reason?: string; readonly inquiry?: boolean } = {}
): DisputeRecord => {
  const dispute: DisputeRecord = {
    id: context.newId("dp"),
    amount: intent.amount_received,
    currency: intent.currency,
    charge: `ch_${intent.id.slice(3)}`,
    payment_intent: intent.id,
    reason: options.reason ?? "fraudulent",
    status: options.inquiry === true ? "warning_needs_response" : "needs_response",
    evidence: {},
    due_by: context.now() + 7 * 24 * 3600,
    submission_count: 0,
    created: context.now()
  }
  disputes.set(dispute.id, dispute)
  return dispute
}

const OPEN = new Set(["needs_response", "warning_needs_response"])

/** The evidence fields that take a file's id (a file uploaded with purpose `dispute_evidence`), as Stripe lists them. */
const FILE_FIELDS = [
  "cancellation_policy",
  "customer_communication",
  "customer_signature",
  "duplicate_charge_documentation",
  "receipt",
  "refund_policy",
  "service_documentation",
  "shipping_documentation",
  "uncategorized_file"
]

/**
 * `GET /v1/disputes/{id}`, `POST /v1/disputes/{id}` (evidence, its files named by the ids of files
 * uploaded for dispute evidence, and `submit=true` to submit it) and
 * `POST /v1/disputes/{id}/close` (accept). A dispute past its deadline, or no longer waiting for a
 * response, refuses both, as Stripe does.
 */
export const handleDispute = (
  context: FakeStripeContext,
  disputes: Map<string, DisputeRecord>,
  files: ReadonlyMap<string, StripeFileRecord>,
  method: string,
  parts: ReadonlyArray<string>,
  form: Record<string, any>
): PspAnswer | undefined => {
  if (parts[1] !== "disputes" || parts[2] === undefined) return undefined
  const dispute = disputes.get(parts[2])
  if (dispute === undefined) return missing("dispute", parts[2])
  if (method === "GET" && parts.length === 3) return [200, disputeObject(dispute)]
  if (method !== "POST" || parts.length > 4 || (parts.length === 4 && parts[3] !== "close")) return undefined
  if (!OPEN.has(dispute.status)) {
    return stripeErrorAnswer(400, "invalid_request_error", `This dispute is already ${dispute.status.replace("warning_", "")}.`)
  }
  if (dispute.due_by < context.now()) {
    return stripeErrorAnswer(400, "invalid_request_error", "The deadline for responding to this dispute has passed.")
  }
  if (parts[3] === "close") {
    dispute.status = "lost"
    return [200, disputeObject(dispute)]
  }
  const evidence = (form.evidence ?? {}) as Record<string, string>
  for (const field of FILE_FIELDS) {
    const id = evidence[field]
    if (id !== undefined && id !== "" && files.get(id)?.purpose !== "dispute_evidence") {
      return stripeErrorAnswer(400, "invalid_request_error", `No such file upload: '${id}'`, { code: "resource_missing", param: `evidence[${field}]` })
    }
  }
  dispute.evidence = { ...dispute.evidence, ...evidence }
  if (form.submit === "true") {
    dispute.submission_count++
    dispute.status = dispute.status === "warning_needs_response" ? "warning_under_review" : "under_review"
  }
  return [200, disputeObject(dispute)]
}
