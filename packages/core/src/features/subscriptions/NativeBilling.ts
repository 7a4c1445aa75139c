import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { Currency } from "../../domain/Currency.js"
import type { Page } from "../../domain/Pagination.js"
import type { NativeInvoice, ProviderEvent } from "../../domain/providers/ConnectorOutcomes.js"
import { type InvoiceRecord, openInvoice } from "../../domain/subscriptions/Invoice.js"
import type { SubscriptionRecord } from "../../domain/subscriptions/Subscription.js"
import { type BillingInput, isFinal, paidInput, transition } from "../../domain/subscriptions/SubscriptionTransitions.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { InvoicesRepository } from "../../ports/InvoicesRepository.js"
import { SubscriptionsRepository } from "../../ports/SubscriptionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { BillingRecords } from "./BillingRecords.js"

type SubscriptionUpdated = Extract<ProviderEvent, { readonly _tag: "SubscriptionUpdated" }>

/** How a PSP report about a native subscription was taken. */
export type NativeReportApplied = "applied" | "unknown" | "foreign"

/**
 * The state of `engine: native` subscriptions, normalized from the PSP's webhooks only. A report
 * names its period (its start) and the attempt within it; only news moves anything: a report of a
 * period or attempt already known (a duplicate, or one overtaken by a later one) changes nothing,
 * and a late report of an older period settles that period's invoice without touching the
 * subscription, which follows its newest period.
 */
export class NativeBilling extends Context.Tag("core/NativeBilling")<NativeBilling, {
  readonly apply: (tenant: Tenant, provider: string, event: SubscriptionUpdated) => Effect.Effect<NativeReportApplied>
}>() {
  static readonly layer = Layer.effect(NativeBilling, Effect.suspend(() => make)).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, BillingRecords.layer)))
}

const final = (record: SubscriptionRecord) => isFinal(record.status)

/** Whether the report says more than the invoice knows: a later attempt, or the payment of an unpaid one. */
const isNews = (invoice: InvoiceRecord, report: NativeInvoice) =>
  report.outcome === "paid"
    ? (invoice.status === "open" || invoice.status === "uncollectible") && report.attempt >= invoice.attempt_count
    : invoice.status === "open" && report.attempt > invoice.attempt_count

/** The invoices of a native subscription's periods, as the PSP's reports write and move them. */
const makeReportedInvoices = Effect.gen(function*() {
  const records = yield* BillingRecords
  const invoices = yield* InvoicesRepository
  const ids = yield* IdGenerator

  /** The subscription's invoice for the period starting at `startMillis`, if one was written. */
  const invoiceOfPeriod = (tenant: Tenant, subscriptionId: string, startMillis: number) =>
    Effect.gen(function*() {
      let startingAfter: string | undefined = undefined
      for (;;) {
        const page: Page<InvoiceRecord> = yield* Effect.orDie(invoices.list(tenant, { subscription: subscriptionId }, { limit: 100, startingAfter }))
        const found = page.data.find((invoice) => invoice.period_start.epochMillis === startMillis)
        if (found !== undefined) return Option.some(found)
        if (!page.hasMore || page.data.length === 0) return Option.none<InvoiceRecord>()
        startingAfter = page.data[page.data.length - 1]!.id
      }
    })

  /** The invoice of the report's period: the one written already, or a new one as the PSP reports it. */
  const invoiceOfReport = (
    tenant: Tenant,
    subscription: SubscriptionRecord,
    report: NativeInvoice,
    firstCharge: boolean,
    time: DateTime.Utc
  ) =>
    Effect.gen(function*() {
      const existing = yield* invoiceOfPeriod(tenant, subscription.id, report.periodStartMillis)
      if (Option.isSome(existing)) return yield* records.lockInvoice(tenant, existing.value.id)
      return yield* records.createInvoice(
        tenant,
        openInvoice({
          id: yield* ids.make("in"),
          subscription_id: subscription.id,
          customer_id: subscription.customer_id,
          plan_id: subscription.plan_id,
          billing_reason: firstCharge ? "subscription_create" : "subscription_cycle",
          amount_due: report.amount,
          currency: report.currency as Currency,
          period_start: DateTime.unsafeMake(report.periodStartMillis),
          period_end: DateTime.unsafeMake(report.periodEndMillis),
          test_clock: subscription.test_clock,
          created_at: time,
          livemode: tenant.livemode
        })
      )
    })

  /** Moves the invoice as the report says: paid, or open for the next attempt (then closed once none is left). */
  const recordOutcome = (tenant: Tenant, invoice: InvoiceRecord, report: NativeInvoice, exhausted: boolean) =>
    Effect.gen(function*() {
      if (report.outcome === "paid") {
        return yield* records.moveInvoice(tenant, invoice, "paid", {
          amount_paid: invoice.amount_due,
          attempt_count: Math.max(invoice.attempt_count, report.attempt),
          next_payment_attempt: null
        })
      }
      const open = yield* records.moveInvoice(tenant, invoice, "open", {
        attempt_count: report.attempt,
        next_payment_attempt: report.nextAttemptMillis === null ? null : DateTime.unsafeMake(report.nextAttemptMillis)
      })
      if (!exhausted) return open
      return yield* records.moveInvoice(
        tenant,
        open,
        // A first charge is not dunned: its subscription never started.
        open.billing_reason === "subscription_create" ? "void" : "uncollectible"
      )
    })

  return { invoiceOfReport, recordOutcome }
})

const make = Effect.gen(function*() {
  const records = yield* BillingRecords
  const subscriptions = yield* SubscriptionsRepository
  const transactions = yield* Transactions
  const { invoiceOfReport, recordOutcome } = yield* makeReportedInvoices

  const ended = (tenant: Tenant, locked: SubscriptionRecord) =>
    Effect.gen(function*() {
      if (locked.latest_invoice_id !== null) {
        const invoice = yield* records.lockInvoice(tenant, locked.latest_invoice_id)
        if (invoice.status === "open") yield* records.moveInvoice(tenant, invoice, "void", { next_payment_attempt: null })
      }
      yield* records.moveSubscription(tenant, locked, "canceled", { canceled_at: yield* now, cancel_at_period_end: false })
    })

  const settlePeriod = (tenant: Tenant, subscriptionId: string, report: NativeInvoice) =>
    Effect.gen(function*() {
      let subscription = yield* records.lockSubscription(tenant, subscriptionId)
      if (final(subscription)) return
      const time = yield* now
      const latest = subscription.latest_invoice_id === null
        ? null
        : yield* records.lockInvoice(tenant, subscription.latest_invoice_id)
      // News of a later period means the PSP got past the first one, which it does only once that is
      // paid: a first period whose own news is still on the way counts as paid.
      const firstPeriodStart = (subscription.trial_end ?? subscription.created_at).epochMillis
      const firstCharge = report.firstCharge ??
        (subscription.trial_end === null && report.periodStartMillis === firstPeriodStart)
      if (!firstCharge && report.periodStartMillis > firstPeriodStart) {
        const input = subscription.status === "incomplete"
          ? "first_charge_paid"
          : subscription.status === "trialing"
          ? "trial_ended_paid"
          : null
        const to = input === null ? null : transition(subscription.status, input)
        if (to !== null) subscription = yield* records.moveSubscription(tenant, subscription, to)
      }
      let invoice = yield* invoiceOfReport(tenant, subscription, report, firstCharge, time)
      if (!isNews(invoice, report)) return
      const exhausted = report.outcome === "failed" && report.nextAttemptMillis === null
      invoice = yield* recordOutcome(tenant, invoice, report, exhausted)

      // The subscription follows its newest period only: news of an older one settled its invoice, and that is all.
      if (latest !== null && report.periodStartMillis < latest.period_start.epochMillis) return
      const period: Partial<SubscriptionRecord> = {
        latest_invoice_id: invoice.id,
        current_period_start: invoice.period_start,
        current_period_end: invoice.period_end
      }
      const move = (input: BillingInput) =>
        Effect.gen(function*() {
          const to = transition(subscription.status, input)
          if (to === null) return false
          subscription = yield* records.moveSubscription(tenant, subscription, to, period)
          return true
        })
      if (report.outcome === "paid") {
        if (!(yield* move(paidInput(subscription.status)))) yield* records.saveSubscription(tenant, subscription, period)
        return
      }
      if (subscription.status === "incomplete") {
        if (exhausted) yield* move("incomplete_expired")
        else yield* records.saveSubscription(tenant, subscription, period)
        return
      }
      if (subscription.status === "trialing") yield* move("trial_ended_failed")
      else if (subscription.status === "active") yield* move("period_renewed_failed")
      else subscription = yield* records.saveSubscription(tenant, subscription, period)
      if (exhausted) yield* move("retries_exhausted")
    })

  const apply = (tenant: Tenant, provider: string, event: SubscriptionUpdated) =>
    Effect.gen(function*() {
      const found = yield* subscriptions.find(tenant, event.reference)
      if (Option.isNone(found)) return "unknown" as const
      const subscription = found.value
      const ours = subscription.engine === "native" && subscription.provider === provider &&
        (subscription.provider_subscription_id === null || subscription.provider_subscription_id === event.pspSubscriptionId)
      if (!ours) return "foreign" as const
      yield* transactions.run(
        event.invoice !== null
          ? settlePeriod(tenant, subscription.id, event.invoice)
          : event.status === "canceled"
          ? Effect.flatMap(records.lockSubscription(tenant, subscription.id), (locked) => final(locked) ? Effect.void : ended(tenant, locked))
          : Effect.void
      )
      return "applied" as const
    })

  return NativeBilling.of({ apply: Effect.fn("NativeBilling.apply")(apply) })
})
