import { type ConnectorError, ConnectorOutcomeUnknown, type Currency, type DisputeFact, type DisputeReason, ProviderEvent } from "@orchestrator/core"
import { Effect } from "effect"
import { fromMollieAmount } from "./Amounts.js"
import { type MollieCall, path, read } from "./Api.js"
import { type Chargeback, ChargebackList } from "./Wire.js"

/**
 * Mollie's chargebacks are read only: no evidence, no acceptance, no deadline. A chargeback is the
 * money already taken back by the customer's bank (`lost`, funds withdrawn); reversed, it is given
 * back (`won`, funds reinstated). Mollie tells of them through the payment's webhook.
 */

/** The bank's SEPA reason codes that say what a dispute would (Mollie gives a reason for SEPA Direct Debit only). */
const REASONS: Readonly<Record<string, DisputeReason>> = {
  MD01: "unrecognized",
  MD06: "general",
  FR01: "fraudulent",
  AM05: "duplicate"
}

const millis = (time: string | null | undefined) => {
  const parsed = time === null || time === undefined ? Number.NaN : Date.parse(time)
  return Number.isNaN(parsed) ? undefined : parsed
}

/** A chargeback of our payment `reference` as a dispute fact, dated when it was made or reversed; `undefined` when unreadable. */
export const factOfChargeback = (chargeback: Chargeback, reference: string): DisputeFact | undefined => {
  const amount = fromMollieAmount(chargeback.amount)
  const createdAt = millis(chargeback.createdAt)
  const reversedAt = millis(chargeback.reversedAt)
  if (amount === undefined || createdAt === undefined) return undefined
  const code = chargeback.reason?.code ?? null
  return {
    pspDisputeId: chargeback.id,
    reference,
    pspPaymentId: chargeback.paymentId,
    status: reversedAt === undefined ? "lost" : "won",
    stage: "chargeback",
    amount,
    currency: chargeback.amount.currency.toUpperCase() as Currency,
    reason: (code === null ? undefined : REASONS[code]) ?? "general",
    reasonCode: code,
    evidenceDueByMillis: null,
    fee: null,
    occurredAtMillis: reversedAt ?? createdAt
  }
}

/** The chargebacks of a payment as events: one per chargeback and state (taken, reversed), so a repeat is stored once. */
export const chargebackEvents = (chargebacks: ReadonlyArray<Chargeback>, reference: string): ReadonlyArray<ProviderEvent> =>
  chargebacks.flatMap((chargeback) => {
    const fact = factOfChargeback(chargeback, reference)
    return fact === undefined
      ? []
      : [ProviderEvent.DisputeUpdated({ eventId: `${chargeback.id}:${fact.status === "won" ? "reversed" : "charged_back"}`, fact })]
  })

/** A payment's chargebacks (`GET /v2/payments/{id}/chargebacks`); none when Mollie has no such payment. */
export const listChargebacks = (call: MollieCall, pspPaymentId: string): Effect.Effect<ReadonlyArray<Chargeback>, ConnectorError> =>
  Effect.flatMap(
    call("list chargebacks", { method: "GET", path: `/v2/payments/${path(pspPaymentId)}/chargebacks`, query: { limit: "250" } }),
    (answer) =>
      answer._tag === "Ok"
        ? Effect.map(read(ChargebackList, "list chargebacks")(answer.json), (list) => list._embedded.chargebacks)
        : answer.status === 404
        ? Effect.succeed([])
        : new ConnectorOutcomeUnknown({ reason: `Mollie list chargebacks: HTTP ${answer.status}` })
  )
