import { DateTime, Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import type { Payment } from "../payments/Payment.js"
import { Payments } from "../payments/Payments.js"
import { Transactions } from "../ports/Transactions.js"
import { BillingRecords } from "./BillingRecords.js"
import { dueAt, expiryOf, IN_FLIGHT_RECHECK } from "./BillingSchedule.js"
import { Dunning, nextRetryAt } from "./DunningSchedule.js"
import type { InvoiceRecord } from "./Invoice.js"
import { SubscriptionRecord } from "./Subscription.js"
import { transition } from "./SubscriptionTransitions.js"

/** Which charge of an invoice: the first of a subscription (customer present), a period's, a dunning retry. */
export type ChargeKind = "first" | "renewal" | "retry"

/**
 * An invoice's charge, for both the first charge (a create) and the billing run: made through the
 * payments service, settled onto the invoice and its subscription, released when the subscription ends.
 */
export const makeInvoiceCharges = Effect.gen(function*() {
  const records = yield* BillingRecords
  const payments = yield* Payments
  const transactions = yield* Transactions

  /** Cancels a payment that can still be completed; one the PSP cannot cancel now is logged and left to expire. */
  const release = (tenant: Tenant, paymentId: string) =>
    payments.cancel(tenant, paymentId, {}).pipe(
      Effect.asVoid,
      Effect.catchAll((error) => Effect.logWarning(`payment ${paymentId} of an ended invoice could not be canceled now`, error))
    )

  /** After a subscription ended: its open invoice's payment, if it could still be completed, is canceled. */
  const releaseLatestPayment = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      if (subscription.latest_invoice_id === null) return
      const invoice = yield* Effect.orDie(records.invoice(tenant, subscription.latest_invoice_id))
      if (invoice.status !== "void" || invoice.payment_id === null) return
      const payment = yield* Effect.orDie(payments.retrieve(tenant, invoice.payment_id))
      if (payment.status === "created" || payment.status === "requires_action" || payment.status === "requires_capture") {
        yield* release(tenant, payment.id)
      }
    })

  /** In the transaction that ends a subscription: its open invoice is void, so nothing charges it any more. */
  const voidOpenInvoice = (tenant: Tenant, subscription: SubscriptionRecord) =>
    Effect.gen(function*() {
      if (subscription.latest_invoice_id === null) return
      const invoice = yield* records.lockInvoice(tenant, subscription.latest_invoice_id)
      if (invoice.status === "open") yield* records.moveInvoice(tenant, invoice, "void", { next_payment_attempt: null })
    })

  /**
   * Charges the invoice's amount with the subscription's stored method through the payments service
   * (attempts, routing, failover). The payment is tied to the invoice in the transaction that creates
   * it, so a charge cut short is finished, never made twice. A dunning retry of a subscription whose
   * provider was not forced is routed afresh and may land on another PSP.
   */
  const charge = (tenant: Tenant, subscriptionId: string, invoiceId: string, kind: ChargeKind) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      const invoice = yield* Effect.orDie(records.invoice(tenant, invoiceId))
      if (invoice.payment_id !== null) {
        const current = yield* Effect.orDie(payments.retrieve(tenant, invoice.payment_id))
        if (current.status === "created" || current.status === "processing") {
          return yield* payments.resume(tenant, current.id, { closingPage: kind === "first" }).pipe(
            Effect.catchTags({
              PaymentNotFound: Effect.die,
              PaymentRefused: (refused) => Effect.succeed(refused.payment),
              ReturnUrlRequired: (required) => Effect.succeed(required.payment)
            })
          )
        }
        // Paid already (its news not yet applied), or the customer is still authenticating the first
        // charge: settling this payment is all there is to do; a new one would charge the period twice.
        if (current.status === "succeeded" || current.status === "requires_capture") return current
        if (current.status === "requires_action" && kind === "first") return current
        // An off-session charge left waiting for an authentication nobody will give: released before
        // the next try, so it can never be completed beside it.
        if (current.status === "requires_action") yield* release(tenant, current.id)
      }
      const attempt = invoice.attempt_count + 1
      const tiedToInvoice = {
        recovered: Option.none<string>(),
        reserved: Option.none<string>(),
        attach: (paymentId: string) =>
          Effect.flatMap(records.lockInvoice(tenant, invoiceId), (locked) =>
            records.saveInvoice(tenant, locked, { payment_id: paymentId, attempt_count: attempt })).pipe(Effect.asVoid)
      }
      const routed = kind === "retry" && !subscription.provider_forced
      const noPayment = transactions.run(
        Effect.flatMap(records.lockInvoice(tenant, invoiceId), (locked) =>
          records.saveInvoice(tenant, locked, { attempt_count: attempt }))
      ).pipe(Effect.as(null))
      // The customer is there for the first charge: a challenge without a return_url ends on our
      // page that says they may close the window (the seed's CreateSubscription has no return_url).
      return yield* payments.create(tenant, {
        amount: invoice.amount_due,
        currency: invoice.currency,
        payment_method: { type: "card", token: subscription.payment_method },
        provider: routed ? undefined : subscription.provider,
        customer_id: subscription.customer_id,
        description: `Invoice ${invoice.id} of subscription ${subscription.id}`,
        ...(kind === "first" && subscription.return_url !== null ? { return_url: subscription.return_url } : {}),
        // A charge billed on a test clock says so: lists filter by it (`test_clock=`), and its times are the clock's.
        metadata: {
          subscription: subscription.id,
          invoice: invoice.id,
          ...(subscription.test_clock === null ? {} : { test_clock: subscription.test_clock })
        }
      }, { offSession: kind !== "first", closingPage: kind === "first" }).pipe(
        Effect.provideService(IdempotencyScope, tiedToInvoice),
        Effect.map((payment): Payment | null => payment),
        Effect.catchTags({
          PaymentRefused: (refused) => Effect.succeed(refused.payment),
          ReturnUrlRequired: (required) => Effect.succeed(required.payment),
          ProviderNotUsable: () => noPayment,
          NoProviderAvailable: () => noPayment
        })
      )
    })

  /** What a paid or failed period invoice changes on its subscription: the period, and the plan it moved to. */
  const periodOf = (subscription: SubscriptionRecord, invoice: InvoiceRecord): Partial<SubscriptionRecord> => {
    if (invoice.period_start.epochMillis < subscription.current_period_start.epochMillis) return {}
    const planChanged = invoice.plan_id !== subscription.plan_id
    return {
      current_period_start: invoice.period_start,
      current_period_end: invoice.period_end,
      plan_id: invoice.plan_id,
      billing_cycle_anchor: planChanged ? invoice.period_start : subscription.billing_cycle_anchor,
      pending_update: subscription.pending_update !== null && subscription.pending_update.plan_id === invoice.plan_id
        ? null
        : subscription.pending_update
    }
  }

  /**
   * Applies how the invoice's latest payment ended, once: paid → the subscription is (again) active
   * for the invoice's period; failed → `past_due` with the next dunning retry, or `unpaid` once the
   * schedule is spent. A first charge that failed leaves the subscription `incomplete` until it expires.
   */
  const settle = (tenant: Tenant, invoiceId: string, payment: Payment | null) =>
    transactions.run(Effect.gen(function*() {
      let invoice = yield* records.lockInvoice(tenant, invoiceId)
      let subscription = yield* records.lockSubscription(tenant, invoice.subscription_id)
      // Only the invoice's latest payment counts; an older one's news is stale.
      if (payment !== null && invoice.payment_id !== payment.id) return subscription
      if (invoice.status === "paid" || invoice.status === "void") return subscription
      const time = yield* now
      const period = periodOf(subscription, invoice)

      if (payment?.status === "succeeded") {
        invoice = yield* records.moveInvoice(tenant, invoice, "paid", {
          amount_paid: invoice.amount_due,
          next_payment_attempt: null
        })
        const input = subscription.status === "incomplete"
          ? "first_charge_paid"
          : subscription.status === "trialing"
          ? "trial_ended_paid"
          : subscription.status === "active"
          ? "period_renewed_paid"
          : "invoice_paid_late"
        const to = transition(subscription.status, input)
        if (to === null) return subscription
        const next = new SubscriptionRecord({ ...subscription, ...period, status: to })
        return yield* records.moveSubscription(tenant, subscription, to, { ...period, next_run_at: dueAt(next, invoice) })
      }

      const inFlight = payment !== null && (payment.status === "created" || payment.status === "processing")
      const awaitingCustomer = payment?.status === "requires_action" && subscription.status === "incomplete"
      if (inFlight || awaitingCustomer) {
        return yield* records.saveSubscription(tenant, subscription, {
          next_run_at: subscription.status === "incomplete" ? expiryOf(subscription) : DateTime.addDuration(time, IN_FLIGHT_RECHECK)
        })
      }

      // Declined, canceled, a challenge nobody is there to complete (off session), or no PSP to ask.
      if (subscription.status === "incomplete") {
        yield* records.moveInvoice(tenant, invoice, "open", { next_payment_attempt: null })
        return yield* records.saveSubscription(tenant, subscription, { next_run_at: expiryOf(subscription) })
      }
      if (invoice.status !== "open") return subscription
      const schedule = yield* Dunning
      const retryMillis = nextRetryAt(schedule, invoice.created_at.epochMillis, invoice.attempt_count)
      const retryAt = retryMillis === null ? null : DateTime.unsafeMake(retryMillis)
      invoice = yield* records.moveInvoice(tenant, invoice, "open", { next_payment_attempt: retryAt })
      if (subscription.status === "trialing" || subscription.status === "active") {
        const to = transition(subscription.status, subscription.status === "trialing" ? "trial_ended_failed" : "period_renewed_failed")
        if (to === null) return subscription
        subscription = yield* records.moveSubscription(tenant, subscription, to, { ...period, next_run_at: retryAt })
      } else {
        subscription = yield* records.saveSubscription(tenant, subscription, { next_run_at: retryAt })
      }
      if (retryAt !== null) return subscription
      yield* records.moveInvoice(tenant, invoice, "uncollectible")
      const exhausted = transition(subscription.status, "retries_exhausted")
      return exhausted === null
        ? subscription
        : yield* records.moveSubscription(tenant, subscription, exhausted, { next_run_at: null })
    }))

  const chargeAndSettle = (tenant: Tenant, subscriptionId: string, invoiceId: string, kind: ChargeKind) =>
    Effect.flatMap(charge(tenant, subscriptionId, invoiceId, kind), (payment) => settle(tenant, invoiceId, payment))


  return { releaseLatestPayment, voidOpenInvoice, settle, chargeAndSettle }
})

export type InvoiceCharges = Effect.Effect.Success<typeof makeInvoiceCharges>
