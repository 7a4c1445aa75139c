import { Context, Effect, Either, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { EventLog } from "../events/EventLog.js"
import { Payments } from "../payments/Payments.js"
import { type Invoice, InvoiceRecord, type InvoiceStatus, invoiceView } from "./Invoice.js"
import { InvoicesRepository } from "./InvoicesRepository.js"
import { InvoiceStateMachine } from "./InvoiceStateMachine.js"
import { type Subscription, SubscriptionRecord, type SubscriptionStatus, subscriptionView } from "./Subscription.js"
import { InvoiceNotFound, SubscriptionNotFound } from "./SubscriptionErrors.js"
import { SubscriptionsRepository } from "./SubscriptionsRepository.js"
import { SubscriptionStateMachine } from "./SubscriptionStateMachine.js"

/**
 * Where subscriptions and invoices are written: every status, the first included, is checked against
 * its state machine and saved with its event (the object as the API shows it), in the caller's
 * transaction.
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
      const subscriptions = yield* SubscriptionsRepository
      const invoices = yield* InvoicesRepository
      const events = yield* EventLog
      const payments = yield* Payments

      const required = <A, E>(found: Effect.Effect<Option.Option<A>>, missing: () => E) =>
        Effect.flatMap(found, Option.match({ onNone: () => Effect.fail(missing()), onSome: Effect.succeed }))
      const present = <A>(found: Effect.Effect<Option.Option<A>>, what: string) =>
        Effect.flatMap(found, Option.match({ onNone: () => Effect.dieMessage(`${what} vanished`), onSome: Effect.succeed }))

      const toInvoice = (tenant: Tenant, record: InvoiceRecord) =>
        record.payment_id === null
          ? Effect.succeed(invoiceView(record, null))
          : Effect.map(Effect.orDie(payments.retrieve(tenant, record.payment_id)), (payment) => invoiceView(record, payment))

      const toSubscription = (tenant: Tenant, record: SubscriptionRecord) =>
        record.latest_invoice_id === null
          ? Effect.succeed(subscriptionView(record, null))
          : Effect.gen(function*() {
            const invoice = yield* present(invoices.find(tenant, record.latest_invoice_id!), `invoice ${record.latest_invoice_id}`)
            return subscriptionView(record, yield* toInvoice(tenant, invoice))
          })

      const check = <S extends string, T extends string>(
        machine: { readonly move: (from: S | null, to: S) => Either.Either<{ readonly event: T }, unknown> },
        from: S | null,
        to: S
      ) => Either.match(machine.move(from, to), { onLeft: (error) => Effect.die(error), onRight: (move) => Effect.succeed(move.event) })

      return BillingRecords.of({
        subscription: (tenant, id) => required(subscriptions.find(tenant, id), () => new SubscriptionNotFound({ id })),
        lockSubscription: (tenant, id) => present(subscriptions.findForUpdate(tenant, id), `subscription ${id}`),
        invoice: (tenant, id) => required(invoices.find(tenant, id), () => new InvoiceNotFound({ id })),
        lockInvoice: (tenant, id) => present(invoices.findForUpdate(tenant, id), `invoice ${id}`),
        subscriptionView: toSubscription,
        invoiceView: toInvoice,
        createSubscription: (tenant, record) =>
          Effect.gen(function*() {
            const type = yield* check(SubscriptionStateMachine, null, record.status)
            yield* subscriptions.insert(tenant, record)
            yield* events.record(tenant, { type, object: yield* toSubscription(tenant, record) })
            return record
          }),
        moveSubscription: (tenant, record, to, changes = {}) =>
          Effect.gen(function*() {
            const type = yield* check(SubscriptionStateMachine, record.status, to)
            const updated = new SubscriptionRecord({ ...record, ...changes, status: to, updated_at: yield* now })
            yield* subscriptions.update(tenant, updated)
            yield* events.record(tenant, { type, object: yield* toSubscription(tenant, updated) })
            return updated
          }),
        saveSubscription: (tenant, record, changes) =>
          Effect.gen(function*() {
            const updated = new SubscriptionRecord({ ...record, ...changes, status: record.status, updated_at: yield* now })
            yield* subscriptions.update(tenant, updated)
            return updated
          }),
        createInvoice: (tenant, record) =>
          Effect.gen(function*() {
            const type = yield* check(InvoiceStateMachine, null, record.status)
            yield* invoices.insert(tenant, record)
            yield* events.record(tenant, { type, object: yield* toInvoice(tenant, record) })
            return record
          }),
        moveInvoice: (tenant, record, to, changes = {}) =>
          Effect.gen(function*() {
            const type = yield* check(InvoiceStateMachine, record.status, to)
            const updated = new InvoiceRecord({ ...record, ...changes, status: to, updated_at: yield* now })
            yield* invoices.update(tenant, updated)
            yield* events.record(tenant, { type, object: yield* toInvoice(tenant, updated) })
            return updated
          }),
        saveInvoice: (tenant, record, changes) =>
          Effect.gen(function*() {
            const updated = new InvoiceRecord({ ...record, ...changes, status: record.status, updated_at: yield* now })
            yield* invoices.update(tenant, updated)
            return updated
          })
      })
    })
  ).pipe(Layer.provide(Layer.mergeAll(EventLog.layer, Payments.layer)))
}
