import { type Currency, type DisputeReason, type DisputeStage, type DisputeStatus, ProviderEvent } from "@orchestrator/core"
import { fromAdyenValue } from "./AdyenAmounts.js"

/** The fields of a notification item a dispute is read from (see `NotificationItem` in AdyenWebhooks). */
interface DisputeItem {
  readonly pspReference: string
  readonly originalReference?: string | undefined
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly eventCode: string
  readonly eventDate?: string | undefined
  readonly additionalData?: { readonly [key: string]: unknown } | undefined
}

/** What each of Adyen's dispute notifications says of the dispute's stage, and its status when `disputeStatus` does not say. */
const NOTIFICATIONS: Readonly<Record<string, { readonly stage: DisputeStage; readonly status: DisputeStatus }>> = {
  REQUEST_FOR_INFORMATION: { stage: "inquiry", status: "needs_response" },
  NOTIFICATION_OF_CHARGEBACK: { stage: "chargeback", status: "needs_response" },
  CHARGEBACK: { stage: "chargeback", status: "needs_response" },
  INFORMATION_SUPPLIED: { stage: "chargeback", status: "under_review" },
  DISPUTE_DEFENSE_PERIOD_ENDED: { stage: "chargeback", status: "expired" },
  CHARGEBACK_REVERSED: { stage: "chargeback", status: "won" },
  SECOND_CHARGEBACK: { stage: "chargeback", status: "lost" },
  PREARBITRATION_OPEN: { stage: "pre_arbitration", status: "needs_response" },
  PREARBITRATION_WON: { stage: "pre_arbitration", status: "won" },
  PREARBITRATION_LOST: { stage: "pre_arbitration", status: "lost" }
}

/** Adyen's `additionalData.disputeStatus`, where it is sent: the dispute's status as Adyen keeps it. */
const DISPUTE_STATUSES: Readonly<Record<string, DisputeStatus>> = {
  Unresponded: "needs_response",
  Undefended: "needs_response",
  Responded: "under_review",
  Pending: "under_review",
  Expired: "expired",
  Accepted: "accepted",
  Lost: "lost",
  Won: "won"
}

/** The card schemes' reason codes Adyen passes on (`chargebackReasonCode`), in ours; any other is `general`. */
const REASON_CODES: Readonly<Record<string, DisputeReason>> = {
  "10.1": "fraudulent",
  "10.2": "fraudulent",
  "10.3": "fraudulent",
  "10.4": "fraudulent",
  "10.5": "fraudulent",
  "4837": "fraudulent",
  "4840": "fraudulent",
  "4863": "unrecognized",
  "12.6.1": "duplicate",
  "4834": "duplicate",
  "13.1": "product_not_received",
  "4855": "product_not_received",
  "13.2": "subscription_canceled",
  "4841": "subscription_canceled",
  "13.3": "product_unacceptable",
  "4853": "product_unacceptable",
  "13.6": "credit_not_processed",
  "4860": "credit_not_processed",
  "12.5": "incorrect_amount"
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined)

const millisOf = (iso: string | undefined) => {
  const millis = iso === undefined ? Number.NaN : Date.parse(iso)
  return Number.isFinite(millis) ? millis : undefined
}

/**
 * A dispute notification in the port's terms: the dispute is Adyen's `pspReference`, its payment the
 * `originalReference` (and our reference, `merchantReference`); dated by `eventDate`, else when it
 * arrived. Other notifications give none.
 */
export const disputeEventsOf = (item: DisputeItem, eventId: string, receivedAtMillis: number) => {
  const known = NOTIFICATIONS[item.eventCode]
  if (known === undefined) return []
  const data = item.additionalData ?? {}
  const reasonCode = text(data.chargebackReasonCode) ?? text(data.rfiReasonCode)
  const dueBy = millisOf(text(data.defensePeriodEndsAt))
  const reported = DISPUTE_STATUSES[text(data.disputeStatus) ?? ""]
  // A notification of a settled stage says its outcome; `disputeStatus` speaks of the dispute while it is open.
  const status = known.status === "needs_response" || known.status === "under_review" ? reported ?? known.status : known.status
  return [ProviderEvent.DisputeUpdated({
    eventId,
    fact: {
      pspDisputeId: item.pspReference,
      reference: item.merchantReference,
      pspPaymentId: item.originalReference ?? null,
      status,
      stage: known.stage,
      amount: fromAdyenValue(item.amount.value, item.amount.currency),
      currency: item.amount.currency as Currency,
      reason: (reasonCode === undefined ? undefined : REASON_CODES[reasonCode]) ?? "general",
      reasonCode: reasonCode ?? null,
      evidenceDueByMillis: dueBy ?? null,
      fee: null,
      occurredAtMillis: millisOf(item.eventDate) ?? receivedAtMillis
    }
  })]
}
