import { type Currency, ProviderEvent } from "@orchestrator/core"

/** A sandbox dispute webhook's object (see `DisputeObject` in SandboxWebhooks). */
export interface SandboxDisputeObject {
  readonly id: string
  readonly charge: string
  readonly charge_reference: string
  readonly amount: number
  readonly currency: string
  readonly status: "needs_response" | "under_review" | "won" | "lost"
  readonly reason: "fraudulent" | "product_not_received"
  readonly evidence_due_by: number
  readonly fee: number
  readonly occurred: number
}

/** A sandbox dispute webhook in the connector port's terms: always a chargeback, its fee in its currency. */
export const disputeEventOf = (eventId: string, dispute: SandboxDisputeObject) =>
  ProviderEvent.DisputeUpdated({
    eventId,
    fact: {
      pspDisputeId: dispute.id,
      reference: dispute.charge_reference,
      pspPaymentId: dispute.charge,
      status: dispute.status,
      stage: "chargeback",
      amount: dispute.amount,
      currency: dispute.currency as Currency,
      reason: dispute.reason,
      reasonCode: dispute.reason === "fraudulent" ? "10.4" : "13.1",
      evidenceDueByMillis: dispute.evidence_due_by,
      fee: { amount: dispute.fee, currency: dispute.currency as Currency },
      occurredAtMillis: dispute.occurred
    }
  })
