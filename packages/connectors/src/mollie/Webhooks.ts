import {
  type AuthorizationOutcome,
  type ConnectorError,
  type IncomingWebhook,
  ProviderEvent,
  type RefundOutcome,
  type WebhookClaim,
  WebhookRejected
} from "@orchestrator/core"
import { Effect, type Option } from "effect"
import { chargebackEvents } from "./Chargebacks.js"
import { outcomeOfPayment, outcomeOfRefund } from "./Outcomes.js"
import { type Chargeback, type Payment, referenceOf, type Refund } from "./Wire.js"

/** A payment id as Mollie makes them (`paymentToken`: `tr_…`), and no longer than any of theirs. */
const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/

/** What reading a webhook needs from Mollie: the payment it names, and that payment's refunds and chargebacks. */
export interface MollieLookups {
  readonly payment: (id: string) => Effect.Effect<Option.Option<Payment>, ConnectorError>
  readonly refunds: (paymentId: string) => Effect.Effect<ReadonlyArray<Refund>, ConnectorError>
  readonly chargebacks: (paymentId: string) => Effect.Effect<ReadonlyArray<Chargeback>, ConnectorError>
}

/** The payment id a classic webhook names: its body is `id=tr_…`, form-encoded, and nothing else is trusted. */
export const paymentIdOf = (body: Uint8Array): string | undefined => {
  const id = new URLSearchParams(new TextDecoder().decode(body)).get("id")
  return id !== null && PAYMENT_ID.test(id) ? id : undefined
}

/** What a webhook claims before Mollie is asked: the payment it names, if it names one. */
export const mollieWebhookClaim = (webhook: IncomingWebhook): WebhookClaim => {
  const id = paymentIdOf(webhook.body)
  return id === undefined ? {} : { subject: id }
}

/** Final refund outcomes only: a refund still queued or pending is no news. */
const isFinal = (outcome: RefundOutcome) => outcome._tag === "Succeeded" || outcome._tag === "Failed"

/** An open payment is the customer's turn on the checkout: nothing moved. */
const moves = (outcome: AuthorizationOutcome) => outcome._tag !== "ActionRequired"

/**
 * Mollie's classic webhooks carry only `id=tr_…` and no signature, so nothing in them is believed:
 * the payment is fetched from Mollie with the connection's own API key, and that answer is the news.
 * An id Mollie does not know under this key, or a payment that does not carry one of our references,
 * is rejected; so is a webhook while Mollie cannot be asked (Mollie sends it again). The event id is
 * the payment's id with the state fetched, so the same state is stored once however often it is told.
 */
export const readMollieWebhook = (webhook: IncomingWebhook, lookups: MollieLookups) =>
  Effect.gen(function*() {
    const id = paymentIdOf(webhook.body)
    if (id === undefined) return yield* new WebhookRejected({ reason: "the body is not a Mollie webhook (id=tr_…)" })
    const unreachable = (error: ConnectorError) =>
      new WebhookRejected({ reason: `Mollie could not be asked about ${id} (${error._tag}); Mollie sends it again` })
    const found = yield* Effect.mapError(lookups.payment(id), unreachable)
    // Both answers are Mollie's word on the id, and stay true: the same id is refused again unasked.
    if (found._tag === "None") return yield* new WebhookRejected({ reason: `Mollie knows no payment ${id} for this connection`, settled: true })
    const payment = found.value
    const reference = referenceOf(payment.metadata)
    if (reference === null) return yield* new WebhookRejected({ reason: `${id} was not made by this service`, settled: true })
    const outcome = outcomeOfPayment(payment)
    const state = outcome._tag === "Authorized" ? `${payment.status}:${outcome.amountCaptured}` : payment.status
    const events: Array<ProviderEvent> = moves(outcome)
      ? [ProviderEvent.PaymentUpdated({ eventId: `${id}:${state}`, reference, pspPaymentId: id, outcome })]
      : []
    // Refunds and chargebacks are told through their payment's webhook: a paid payment's are read too.
    if (payment.status === "paid") {
      const refunds = yield* Effect.mapError(lookups.refunds(id), unreachable)
      for (const refund of refunds) {
        const refundOutcome = outcomeOfRefund(refund)
        if (!isFinal(refundOutcome)) continue
        events.push(ProviderEvent.RefundUpdated({
          eventId: `${refund.id}:${refund.status}`,
          reference: referenceOf(refund.metadata),
          pspRefundId: refund.id,
          outcome: refundOutcome
        }))
      }
      events.push(...chargebackEvents(yield* Effect.mapError(lookups.chargebacks(id), unreachable), reference))
    }
    return events
  })
