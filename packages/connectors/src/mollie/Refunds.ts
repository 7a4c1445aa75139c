import { ConnectorOutcomeUnknown, type PaymentConnector, RefundOutcome } from "@orchestrator/core"
import { Effect, Either } from "effect"
import { toMollieAmount } from "./Amounts.js"
import { type MollieCall, path, read } from "./Api.js"
import { failureOfError } from "./Failures.js"
import { outcomeOfRefund } from "./Outcomes.js"
import { REFERENCE_KEY, referenceOf, Refund, RefundList } from "./Wire.js"

/** Mollie shows a refund's description on the customer's statement where it can; ours is the reason, or none. */
const descriptionOf = (reason: string | null) => reason === null ? "" : reason.replace(/_/g, " ").slice(0, 255)

/** Refunds (part of) a payment under our reference; Mollie answers `queued` or `pending` and settles it later. */
export const mollieRefund = (call: MollieCall): PaymentConnector["refund"] => ({ amount, currency, pspPaymentId, reason, reference }) =>
  Effect.gen(function*() {
    const value = toMollieAmount(amount, currency)
    if (Either.isLeft(value)) return RefundOutcome.Failed({ pspRefundId: null, ...value.left })
    const answer = yield* call("create refund", {
      method: "POST",
      path: `/v2/payments/${path(pspPaymentId)}/refunds`,
      idempotencyKey: reference,
      body: { amount: value.right, description: descriptionOf(reason), metadata: { [REFERENCE_KEY]: reference } }
    })
    if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "create refund")(answer.json))
    const { code, message, providerMessage } = failureOfError(answer.error, "refund_failed")
    return RefundOutcome.Failed({ pspRefundId: null, code, message, providerMessage })
  })

/** A payment's refunds (the first 250: more is not a payment of ours), or `None` when Mollie has no such payment. */
export const listRefunds = (call: MollieCall, pspPaymentId: string) =>
  Effect.flatMap(
    call("list refunds", { method: "GET", path: `/v2/payments/${path(pspPaymentId)}/refunds`, query: { limit: "250" } }),
    (answer) =>
      answer._tag === "Ok"
        ? Effect.asSome(Effect.map(read(RefundList, "list refunds")(answer.json), (list) => list._embedded.refunds))
        : answer.status === 404
        ? Effect.succeedNone
        : new ConnectorOutcomeUnknown({ reason: `Mollie list refunds: HTTP ${answer.status}` })
  )

/** A refund by its id, or found by our reference among its payment's refunds. */
export const mollieSyncRefund = (call: MollieCall): PaymentConnector["syncRefund"] => ({ pspPaymentId, pspRefundId, reference }) =>
  Effect.gen(function*() {
    // Mollie's refunds live under their payment: without the payment's id there is nothing to ask.
    if (pspPaymentId === undefined || pspPaymentId === null) return RefundOutcome.Unknown()
    if (pspRefundId !== undefined && pspRefundId !== null) {
      const answer = yield* call("get refund", {
        method: "GET",
        path: `/v2/payments/${path(pspPaymentId)}/refunds/${path(pspRefundId)}`
      })
      if (answer._tag === "Ok") return outcomeOfRefund(yield* read(Refund, "get refund")(answer.json))
      if (answer.status === 404) return RefundOutcome.Unknown()
      return yield* new ConnectorOutcomeUnknown({ reason: `Mollie get refund: HTTP ${answer.status}` })
    }
    const refunds = yield* listRefunds(call, pspPaymentId)
    if (refunds._tag === "None") return RefundOutcome.Unknown()
    const found = refunds.value.find((refund) => referenceOf(refund.metadata) === reference)
    return found === undefined ? RefundOutcome.Unknown() : outcomeOfRefund(found)
  })
