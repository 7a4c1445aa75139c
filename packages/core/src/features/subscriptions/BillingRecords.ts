import { Context, Effect, Layer, Option } from "effect"
import { type Invoice, InvoiceRecord, type InvoiceStatus, invoiceView } from "../../domain/subscriptions/Invoice.js"
import { InvoiceStateMachine } from "../../domain/subscriptions/InvoiceStateMachine.js"
import { type Subscription, SubscriptionRecord, type SubscriptionStatus, subscriptionView } from "../../domain/subscriptions/Subscription.js"
import { InvoiceNotFound, SubscriptionNotFound } from "../../domain/subscriptions/SubscriptionErrors.js"
import { SubscriptionStateMachine } from "../../domain/subscriptions/SubscriptionStateMachine.js"
import type { Tenant } from "../../domain/Tenant.js"
import { InvoicesRepository } from "../../ports/InvoicesRepository.js"
import { SubscriptionsRepository } from "../../ports/SubscriptionsRepository.js"
import { EventLog } from "../events/EventLog.js"
import { makeLifecycle } from "../lifecycle/Lifecycle.js"
import { Payments } from "../payments/Payments.js"

/**
 * Where subscriptions and invoices are written: a `Lifecycle` each (every status, the first included,
 * checked against its state machine and saved with its event, in the caller's transaction), whose
 * events show the object as the API does.
 */
export class BillingRecords extends Context.Tag("core/BillingRecords")<BillingRecords, {
  readonly subscription: (tenant: Tenant, id: string) => Effect.Effect<SubscriptionRecord, SubscriptionNotFound>
  readonly lockSubscription: (tenant: Tenant, id: string) => Effect.Effect<SubscriptionRecord>
  readonly invoice: (tenant: Tenant, id: string) => Effect.Effect<InvoiceRecord, InvoiceNotFound>
  readonly lockInvoice: (tenant: Tenant, id: string) => Effect.Effect<InvoiceRecord>
  readonly subscriptionView: (tenant: Tenant, record: SubscriptionRecord) => Effect.Effect<Subscription>
  readonly invoiceView: (tenant: Tenant, record: InvoiceRecord) => Effect.Effect<Invoice>
  readonly createSubscription: (tenant: Tenant, record: SubscriptionRecord) => Effect.Effect<SubscriptionRecord>
  readonly moveSubscription: (
    tenant: Tenant,
    record: SubscriptionRecord,
    to: SubscriptionStatus,
    changes?: Partial<SubscriptionRecord>
  ) => Effect.Effect<SubscriptionRecord>
  /** Changes that are no move (the next run time, the in-flight invoice): no event. */
  readonly saveSubscription: (
    tenant: Tenant,
    record: SubscriptionRecord,
    changes: Partial<SubscriptionRecord>
  ) => Effect.Effect<SubscriptionRecord>
  readonly createInvoice: (tenant: Tenant, record: InvoiceRecord) => Effect.Effect<InvoiceRecord>
  readonly moveInvoice: (
    tenant: Tenant,
    record: InvoiceRecord,
    to: InvoiceStatus,
    changes?: Partial<InvoiceRecord>
  ) => Effect.Effect<InvoiceRecord>
  readonly saveInvoice: (tenant: Tenant, record: InvoiceRecord, changes: Partial<InvoiceRecord>) => Effect.Effect<InvoiceRecord>
}>() {
  static readonly layer = Layer.effect(
    BillingRecords,
    Effect.gen(function*() {
      const invoices = yield* InvoicesRepository
      const payments = yield* Payments

      const toInvoice = (tenant: Tenant, record: InvoiceRecord) =>
        record.payment_id === null
          ? Effect.succeed(invoiceView(record, null))
          : Effect.map(Effect.orDie(payments.retrieve(tenant, record.payment_id)), (payment) => invoiceView(record, payment))

      const toSubscription = (tenant: Tenant, record: SubscriptionRecord) =>
        record.latest_invoice_id === null
          ? Effect.succeed(subscriptionView(record, null))
          : Effect.gen(function*() {
            const invoice = yield* Effect.flatMap(
              invoices.find(tenant, record.latest_invoice_id!),
              Option.match({
                onNone: () => Effect.dieMessage(`invoice ${record.latest_invoice_id} vanished`),
                onSome: Effect.succeed
              })
            )
            return subscriptionView(record, yield* toInvoice(tenant, invoice))
          })

      // Each event's object is the record as the API shows it, with its latest invoice or its payment.
      const subscriptionLifecycle = yield* makeLifecycle({
        machine: SubscriptionStateMachine,
        store: yield* SubscriptionsRepository,
        make: (fields) => new SubscriptionRecord(fields),
        event: (type, record, tenant) => Effect.map(toSubscription(tenant, record), (object) => ({ type, object })),
        notFound: (id) => new SubscriptionNotFound({ id })
      })
      const invoiceLifecycle = yield* makeLifecycle({
        machine: InvoiceStateMachine,
        store: invoices,
        make: (fields) => new InvoiceRecord(fields),
        event: (type, record, tenant) => Effect.map(toInvoice(tenant, record), (object) => ({ type, object })),
        notFound: (id) => new InvoiceNotFound({ id })
      })

      return BillingRecords.of({
        subscription: subscriptionLifecycle.load,
        lockSubscription: subscriptionLifecycle.lock,
        invoice: invoiceLifecycle.load,
        lockInvoice: invoiceLifecycle.lock,
        subscriptionView: toSubscription,
        invoiceView: toInvoice,
        createSubscription: subscriptionLifecycle.create,
        moveSubscription: subscriptionLifecycle.move,
        saveSubscription: subscriptionLifecycle.save,
        createInvoice: invoiceLifecycle.create,
        moveInvoice: invoiceLifecycle.move,
        saveInvoice: invoiceLifecycle.save
      })
    })
  ).pipe(Layer.provide(Layer.mergeAll(EventLog.layer, Payments.layer)))
}
