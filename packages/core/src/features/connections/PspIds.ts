import { Effect } from "effect"
import {
  type AuthorizationOutcome,
  ConnectorOutcomeUnknown,
  type NativeSubscriptionReport,
  type ProviderEvent,
  type RefundOutcome,
  WebhookRejected
} from "../../domain/providers/ConnectorOutcomes.js"
import type { PaymentConnector } from "../../ports/PaymentConnector.js"

/** The longest PSP id the service keeps: longer than any PSP's, as long as any id column allows. */
export const MAX_PSP_ID_LENGTH = 255

/**
 * Whether a PSP's id (its payment, refund, event, subscription or invoice id, Adyen's `pspReference`)
 * is one the service may store and show: 1 to 255 visible ASCII characters, no space or control
 * character. Every PSP's ids are far inside this; anything else is not an id but something a PSP (or
 * whoever answers in its place) made up, and is never written anywhere or shown to a merchant.
 */
export const isPspId = (text: string): boolean => text.length >= 1 && text.length <= MAX_PSP_ID_LENGTH && /^[\x21-\x7e]+$/.test(text)

const validOrNull = (id: string | null | undefined) => id === null || id === undefined || isPspId(id)

const unreadable = (what: string) =>
  new ConnectorOutcomeUnknown({
    reason: `the PSP answered with a ${what} that is not an id (1 to ${MAX_PSP_ID_LENGTH} visible ASCII characters); the outcome is reconciled`
  })

const authorizationIdsValid = (outcome: AuthorizationOutcome) => outcome._tag === "Unknown" || validOrNull(outcome.pspPaymentId)

const refundIdsValid = (outcome: RefundOutcome) => outcome._tag === "Unknown" || validOrNull(outcome.pspRefundId)

const reportIdsValid = (report: NativeSubscriptionReport) =>
  isPspId(report.eventId) && isPspId(report.reference) && isPspId(report.pspSubscriptionId) &&
  (report.invoice === null || isPspId(report.invoice.pspInvoiceId))

/** Whether every id of the PSP's an event carries is one. */
const eventIdsValid = (event: ProviderEvent) => {
  switch (event._tag) {
    case "PaymentUpdated":
      return isPspId(event.eventId) && validOrNull(event.pspPaymentId) && authorizationIdsValid(event.outcome)
    case "RefundUpdated":
      return isPspId(event.eventId) && validOrNull(event.pspRefundId) && refundIdsValid(event.outcome)
    case "SubscriptionUpdated":
      return reportIdsValid(event)
    case "DisputeUpdated":
      return isPspId(event.eventId) && isPspId(event.fact.pspDisputeId) && validOrNull(event.fact.pspPaymentId)
  }
}

/**
 * The event with a payment's or refund's reference that is not an id taken as none: ours always are,
 * so such a one (a merchant reference another system gave a payment made outside this service) names
 * nothing of ours, and is not kept; the event still counts for the PSP's ids it carries.
 */
const withReadableReference = (event: ProviderEvent): ProviderEvent =>
  event._tag === "SubscriptionUpdated"
    ? event
    : event._tag === "DisputeUpdated"
    ? (validOrNull(event.fact.reference) ? event : { ...event, fact: { ...event.fact, reference: null } })
    : validOrNull(event.reference)
    ? event
    : { ...event, reference: null }

const checked = <A>(valid: (answer: A) => boolean, what: string) => <B extends A, E, R>(call: Effect.Effect<B, E, R>) =>
  Effect.flatMap(call, (answer) => valid(answer) ? Effect.succeed(answer) : Effect.fail(unreadable(what)))

/**
 * The connector with every id its PSP answers checked before anything stores or shows it: an answer
 * or report holding one that is not an id is unreadable, the same as an answer that does not decode
 * (`ConnectorOutcomeUnknown`, settled by reconciliation); a webhook holding one is refused (the PSP
 * sends it again, and reconciliation asks meanwhile). Every connector goes through it, so none can
 * put a PSP's made-up text into a payment's `provider_payment_id`.
 */
export const idCheckedConnector = (connector: PaymentConnector): PaymentConnector => {
  const payment = checked(authorizationIdsValid, "payment id")
  const refund = checked(refundIdsValid, "refund id")
  const { completeAction, subscriptions } = connector
  return {
    ...connector,
    authorize: (request) => payment(connector.authorize(request)),
    syncPayment: (request) => payment(connector.syncPayment(request)),
    refund: (request) => refund(connector.refund(request)),
    syncRefund: (request) => refund(connector.syncRefund(request)),
    verifyWebhook: (webhook) =>
      Effect.flatMap(connector.verifyWebhook(webhook), (events) =>
        events.every(eventIdsValid)
          ? Effect.succeed(events.map(withReadableReference))
          : Effect.fail(new WebhookRejected({ reason: `it holds an id that is not one (1 to ${MAX_PSP_ID_LENGTH} visible ASCII characters)`, signed: true }))),
    ...(completeAction === undefined ? {} : { completeAction: (request) => payment(completeAction(request)) }),
    ...(subscriptions === undefined ? {} : {
      subscriptions: {
        ...subscriptions,
        create: (request) =>
          checked((made: { readonly pspSubscriptionId: string }) => isPspId(made.pspSubscriptionId), "subscription id")(subscriptions.create(request)),
        advance: (request) =>
          checked(
            (advanced: { readonly reports: ReadonlyArray<NativeSubscriptionReport> }) => advanced.reports.every(reportIdsValid),
            "subscription report id"
          )(
            subscriptions.advance(request)
          )
      }
    })
  }
}
