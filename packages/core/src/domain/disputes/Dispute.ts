import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { field, optionalField } from "../Field.js"
import { Amount, MinorUnits } from "../Money.js"
import { RequestBody } from "../RequestBody.js"
import { BoundedString, Identifier } from "../Text.js"
import { Timestamp } from "../Timestamp.js"

export const DisputeStatus = Schema.Literal("needs_response", "under_review", "won", "lost", "accepted", "expired", "warning_closed")
export type DisputeStatus = typeof DisputeStatus.Type

/** The statuses in which the merchant may still act (answer with evidence, or accept). */
export const OPEN_DISPUTE_STATUSES: ReadonlyArray<DisputeStatus> = ["needs_response", "under_review"]

export const DisputeStage = Schema.Literal("inquiry", "chargeback", "pre_arbitration", "arbitration")
export type DisputeStage = typeof DisputeStage.Type

/** The normalized reasons; the PSP's own code is kept beside (`reason_code`). */
export const DisputeReason = Schema.Literal(
  "fraudulent",
  "unrecognized",
  "duplicate",
  "product_not_received",
  "product_unacceptable",
  "subscription_canceled",
  "credit_not_processed",
  "incorrect_amount",
  "general"
)
export type DisputeReason = typeof DisputeReason.Type

/** Where the money of a dispute is: not taken yet (an inquiry), taken from the merchant, or given back. */
export const DisputeFunds = Schema.Literal("none", "withdrawn", "reinstated")
export type DisputeFunds = typeof DisputeFunds.Type

const evidenceText = (description: string) => optionalField(BoundedString, description)

const evidenceFile = (description: string) =>
  optionalField(Schema.NullOr(Identifier), `${description} A file's id (\`file_…\`, uploaded with \`POST /v1/files\`); \`null\` takes it out of the evidence.`)

/** Files given as evidence, named as Stripe names its evidence files; each is a `file_…` of the dispute's organization and mode. */
export const DisputeEvidenceFiles = Schema.Struct({
  receipt: evidenceFile("The receipt or invoice."),
  customer_communication: evidenceFile("Messages exchanged with the customer (emails, chat)."),
  shipping_documentation: evidenceFile("Proof of shipping or delivery (a label, a signed delivery note)."),
  refund_policy: evidenceFile("Your refund policy, as shown to the customer."),
  cancellation_policy: evidenceFile("Your cancellation policy, as shown to the customer."),
  uncategorized_file: evidenceFile("Anything else that supports your case.")
})
export type DisputeEvidenceFiles = typeof DisputeEvidenceFiles.Type
export type EvidenceFileField = keyof DisputeEvidenceFiles

/** The normalized evidence fields; each PSP's connector translates them into its own. */
export const DisputeEvidence = Schema.Struct({
  product_description: evidenceText("What was sold, as the customer would recognise it."),
  customer_name: evidenceText("The customer's name."),
  customer_email: evidenceText("The customer's email address."),
  customer_communication: evidenceText("Messages exchanged with the customer, as text."),
  receipt: evidenceText("The receipt or invoice, as text."),
  shipping_carrier: evidenceText("The carrier that delivered the goods."),
  shipping_tracking_number: evidenceText("The carrier's tracking number."),
  shipping_date: evidenceText("When the goods were shipped (as you write dates)."),
  refund_policy: evidenceText("Your refund policy, as shown to the customer."),
  cancellation_policy: evidenceText("Your cancellation policy, as shown to the customer."),
  uncategorized_text: evidenceText("Anything else that supports your case."),
  files: optionalField(DisputeEvidenceFiles, "Files as evidence, by kind; the kinds given replace those saved, the others stay.")
})
export type DisputeEvidence = typeof DisputeEvidence.Type

export const EvidenceSubmissionStatus = Schema.Literal("not_submitted", "submitted", "refused")

export const EvidenceSubmission = Schema.Struct({
  status: field(
    EvidenceSubmissionStatus,
    "`not_submitted` while the evidence can be edited, `submitted` once sent, `refused` when the PSP refused it (editable again; `failure` says why)."
  ),
  submitted_at: field(Schema.NullOr(Timestamp), "When the evidence was sent to the PSP."),
  failure: field(
    Schema.NullOr(Schema.Struct({
      code: field(Schema.String, "Why, as a code (e.g. `dispute_not_found`, `evidence_deadline_passed`)."),
      message: field(Schema.String, "Why, in our words (never the provider's own text).")
    })),
    "Why the PSP refused the evidence (`refused` only); else `null`."
  )
})
export type EvidenceSubmission = typeof EvidenceSubmission.Type

export const DisputeFee = Schema.Struct({
  amount: field(MinorUnits, "The fee, in minor units of its `currency`."),
  currency: field(Currency, "The fee's currency.")
})

export class Dispute extends Schema.Class<Dispute>("Dispute")({
  object: field(Schema.Literal("dispute"), "Always `dispute`."),
  id: field(Schema.String, "The dispute's id (`dp_…`)."),
  payment_id: field(Schema.String, "The payment disputed (`pay_…`)."),
  provider: field(Schema.String, "The provider connection the payment was made on (its `name`)."),
  provider_dispute_id: field(Schema.String, "The PSP's own id for the dispute."),
  amount: field(Amount, "The amount disputed, in minor units of `currency`."),
  currency: field(Currency, "The dispute's currency, which may differ from the payment's."),
  reason: field(DisputeReason, "Why the customer disputes, normalized."),
  reason_code: field(Schema.NullOr(Schema.String), "The PSP's or the card network's own reason code, as it sent it."),
  stage: field(DisputeStage, "`inquiry`, `chargeback`, `pre_arbitration` or `arbitration`."),
  status: field(
    DisputeStatus,
    "`needs_response` (answer before `evidence_due_by`), `under_review`, then `won`, `lost`, `accepted`, `expired` or `warning_closed` (an inquiry that ended)."
  ),
  funds: field(DisputeFunds, "`none` (an inquiry), `withdrawn` (the amount was taken from you), `reinstated` (given back)."),
  evidence_due_by: field(Schema.NullOr(Timestamp), "The deadline for evidence (ISO 8601 UTC), when the PSP gives one."),
  evidence: field(DisputeEvidence, "The evidence saved so far."),
  evidence_submission: field(EvidenceSubmission, "Whether the evidence was sent to the PSP."),
  evidence_due_soon: field(
    Schema.NullOr(Schema.Literal("72h", "24h")),
    "The last deadline warning given (`dispute.updated` at 72 h and at 24 h before `evidence_due_by`, while it needs a response); else `null`."
  ),
  fee: field(Schema.NullOr(DisputeFee), "The PSP's dispute fee, where it says it."),
  provider_reported_at: field(Timestamp, "When the PSP's latest news of the dispute happened (older news arriving later changes nothing)."),
  created_at: field(Timestamp, "When the dispute was recorded (ISO 8601 UTC)."),
  updated_at: field(Timestamp, "When the dispute last changed (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for live money, `false` for test mode.")
}) {}

/** Body of `POST /v1/disputes/{id}/evidence`: the fields given replace those saved; the others stay. */
export const UpdateDisputeEvidence = RequestBody("UpdateDisputeEvidence", DisputeEvidence.fields)
export type UpdateDisputeEvidence = typeof UpdateDisputeEvidence.Type

/** Body of `POST /v1/disputes/{id}/submit` and `/accept`: nothing but a note for your records. */
export const AnswerDispute = RequestBody("AnswerDispute", {
  note: optionalField(BoundedString, "For your records; not sent to the provider.")
})
export type AnswerDispute = typeof AnswerDispute.Type
