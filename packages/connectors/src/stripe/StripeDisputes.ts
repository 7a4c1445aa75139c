import {
  type Currency,
  DisputeActionOutcome,
  type DisputeEvidence,
  type DisputeFact,
  type DisputeOperations,
  type DisputeReason,
  type DisputeStatus,
  type EvidenceFileContents,
  type EvidenceFileField,
  ProviderEvent
} from "@orchestrator/core"
import { Effect, Either, Schema } from "effect"
import { boundaryFor, encodeMultipart, evidenceFilePart, evidenceFileRefused } from "../transport/MultipartForm.js"
import { fromStripeAmount } from "./StripeAmounts.js"
import { path, read, type StripeCall } from "./StripeApi.js"
import { failureOf } from "./StripeErrors.js"

/** A Stripe Dispute, as far as we read it (`charge.dispute.*` events and `/v1/disputes/{id}`). */
export const StripeDispute = Schema.Struct({
  id: Schema.String,
  amount: Schema.Int,
  currency: Schema.String,
  charge: Schema.String,
  payment_intent: Schema.optional(Schema.NullOr(Schema.String)),
  reason: Schema.String,
  status: Schema.String,
  evidence_details: Schema.optional(Schema.NullOr(Schema.Struct({ due_by: Schema.optional(Schema.NullOr(Schema.Int)) }))),
  balance_transactions: Schema.optional(Schema.Array(Schema.Struct({ fee: Schema.Int, currency: Schema.String })))
})
export type StripeDispute = typeof StripeDispute.Type

/** Stripe's statuses: `warning_*` are inquiries; `charge_refunded` closed the dispute with the money given back. */
const STATUSES: Readonly<Record<string, { readonly status: DisputeStatus; readonly inquiry: boolean }>> = {
  warning_needs_response: { status: "needs_response", inquiry: true },
  warning_under_review: { status: "under_review", inquiry: true },
  warning_closed: { status: "warning_closed", inquiry: true },
  needs_response: { status: "needs_response", inquiry: false },
  under_review: { status: "under_review", inquiry: false },
  won: { status: "won", inquiry: false },
  lost: { status: "lost", inquiry: false },
  charge_refunded: { status: "accepted", inquiry: false }
}

/** Stripe's reasons, in ours (its own is kept as `reason_code`). */
const REASONS: Readonly<Record<string, DisputeReason>> = {
  fraudulent: "fraudulent",
  unrecognized: "unrecognized",
  duplicate: "duplicate",
  product_not_received: "product_not_received",
  product_unacceptable: "product_unacceptable",
  subscription_canceled: "subscription_canceled",
  credit_not_processed: "credit_not_processed"
}

/** What a Stripe dispute says, as of `occurredAtMillis` (its event's `created`); `undefined` for a status Stripe does not document. */
export const factOfStripeDispute = (dispute: StripeDispute, occurredAtMillis: number): DisputeFact | undefined => {
  const status = STATUSES[dispute.status]
  const currency = dispute.currency.toUpperCase() as Currency
  if (status === undefined) return undefined
  const fee = dispute.balance_transactions?.find((transaction) => transaction.fee > 0)
  const dueBy = dispute.evidence_details?.due_by
  return {
    pspDisputeId: dispute.id,
    reference: null,
    pspPaymentId: dispute.payment_intent ?? dispute.charge,
    status: status.status,
    stage: status.inquiry ? "inquiry" : "chargeback",
    amount: fromStripeAmount(dispute.amount, currency),
    currency,
    reason: REASONS[dispute.reason] ?? "general",
    reasonCode: dispute.reason,
    evidenceDueByMillis: dueBy === undefined || dueBy === null ? null : dueBy * 1000,
    fee: fee === undefined
      ? null
      : { amount: fromStripeAmount(fee.fee, fee.currency.toUpperCase() as Currency), currency: fee.currency.toUpperCase() as Currency },
    occurredAtMillis
  }
}

/** A `charge.dispute.*` event in the port's terms. */
export const disputeEventOf = (eventId: string, dispute: StripeDispute, occurredAtMillis: number) => {
  const fact = factOfStripeDispute(dispute, occurredAtMillis)
  return fact === undefined ? [] : [ProviderEvent.DisputeUpdated({ eventId, fact })]
}

/** Our evidence in Stripe's fields: texts it has no text field for (communication, receipt) go into `uncategorized_text`. */
export const stripeEvidenceOf = (evidence: DisputeEvidence) => {
  const extra = [
    evidence.customer_communication === undefined ? undefined : `Customer communication:\n${evidence.customer_communication}`,
    evidence.receipt === undefined ? undefined : `Receipt:\n${evidence.receipt}`,
    evidence.uncategorized_text
  ].filter((text) => text !== undefined)
  return {
    product_description: evidence.product_description,
    customer_name: evidence.customer_name,
    customer_email_address: evidence.customer_email,
    shipping_carrier: evidence.shipping_carrier,
    shipping_tracking_number: evidence.shipping_tracking_number,
    shipping_date: evidence.shipping_date,
    refund_policy_disclosure: evidence.refund_policy,
    cancellation_policy_disclosure: evidence.cancellation_policy,
    uncategorized_text: extra.length === 0 ? undefined : extra.join("\n\n")
  }
}

/**
 * Our kinds of evidence file are Stripe's file fields of a dispute's evidence, one for one (ours were
 * named after them); each takes the id of a file uploaded to Stripe with purpose `dispute_evidence`.
 */
const STRIPE_FILE_FIELDS: { readonly [Field in EvidenceFileField]: string } = {
  receipt: "receipt",
  customer_communication: "customer_communication",
  shipping_documentation: "shipping_documentation",
  refund_policy: "refund_policy",
  cancellation_policy: "cancellation_policy",
  uncategorized_file: "uncategorized_file"
}

/** A File of Stripe's (`POST /v1/files`), as far as we read it. */
const StripeFile = Schema.Struct({ id: Schema.String })

/**
 * Uploads one evidence file to Stripe (`POST /v1/files`, multipart, `purpose=dispute_evidence`): its
 * Stripe id, or Stripe's refusal in our words, naming the file. The same file for the same dispute
 * is the same request (key and bytes), so sending it again after a lost answer uploads it once.
 */
const uploadFile = (call: StripeCall, pspDisputeId: string, evidenceFile: EvidenceFileContents) =>
  Effect.gen(function*() {
    const what = "upload dispute evidence file"
    const answer = yield* call(what, {
      method: "POST",
      path: "/v1/files",
      idempotencyKey: `${pspDisputeId}:evidence:${evidenceFile.file.id}`,
      upload: encodeMultipart(
        [{ name: "purpose", value: "dispute_evidence" }, evidenceFilePart("file", evidenceFile)],
        boundaryFor(evidenceFile.file.id, [evidenceFile.contents])
      )
    })
    if (answer._tag === "Ok") return Either.right((yield* read(StripeFile, what)(answer.json)).id)
    const { code, message, providerMessage } = failureOf(answer.error, answer.status)
    // Stripe limiting requests refuses no file: its own code says to try again.
    return Either.left(
      code === "rate_limited" ? DisputeActionOutcome.Refused({ code, message, providerMessage }) : evidenceFileRefused(evidenceFile, providerMessage)
    )
  })

/** Stripe's answer to a dispute call: done, or refused with our code and message (Stripe's own text kept apart). */
const answered = (call: StripeCall, what: string, request: Parameters<StripeCall>[1]) =>
  Effect.gen(function*() {
    const answer = yield* call(what, request)
    if (answer._tag === "Ok") {
      yield* read(StripeDispute, what)(answer.json)
      return DisputeActionOutcome.Done()
    }
    const { code, message, providerMessage } = failureOf(answer.error, answer.status)
    return DisputeActionOutcome.Refused({ code, message, providerMessage })
  })

/**
 * Evidence and its submission in one update (`submit=true`), its files uploaded first and named by
 * their Stripe ids; accepting is Stripe's `close`; a read is `GET /v1/disputes/{id}`.
 */
export const stripeDisputes = (call: StripeCall): DisputeOperations => ({
  takesFiles: true,
  submitEvidence: ({ evidence, files = [], pspDisputeId }) =>
    Effect.gen(function*() {
      const fileFields: Record<string, string> = {}
      for (const file of files) {
        const uploaded = yield* uploadFile(call, pspDisputeId, file)
        if (Either.isLeft(uploaded)) return uploaded.left
        fileFields[STRIPE_FILE_FIELDS[file.field]] = uploaded.right
      }
      return yield* answered(call, "submit dispute evidence", {
        method: "POST",
        path: `/v1/disputes/${path(pspDisputeId)}`,
        form: { evidence: { ...stripeEvidenceOf(evidence), ...fileFields }, submit: true }
      })
    }),
  accept: ({ pspDisputeId }) => answered(call, "close dispute", { method: "POST", path: `/v1/disputes/${path(pspDisputeId)}/close` }),
  // Stripe dates no change of a dispute: what it says now is dated by the read.
  read: ({ atMillis, pspDisputeId }) =>
    Effect.gen(function*() {
      const answer = yield* call("retrieve dispute", { method: "GET", path: `/v1/disputes/${path(pspDisputeId)}` })
      if (answer._tag === "Failed") return undefined
      return factOfStripeDispute(yield* read(StripeDispute, "retrieve dispute")(answer.json), atMillis)
    })
})
