import { Context, Effect, Layer } from "effect"
import type { Running } from "../../domain/idempotency/KeyRun.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import type { NoProviderAvailable, ProviderNotUsable } from "../../domain/routing/RoutingErrors.js"
import type {
  CancelSubscription,
  CreateSubscription,
  Subscription,
  SubscriptionListFilter,
  UpdateSubscription
} from "../../domain/subscriptions/Subscription.js"
import type {
  BillingRequestInvalid,
  ReferenceNotFound,
  SubscriptionDeclined,
  SubscriptionFinal,
  SubscriptionNotFound
} from "../../domain/subscriptions/SubscriptionErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { type DueSubscription, SubscriptionsRepository } from "../../ports/SubscriptionsRepository.js"
import { Connectors } from "../connections/Connectors.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { Payments } from "../payments/Payments.js"
import { Refunds } from "../refunds/Refunds.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { BillingRecords } from "./BillingRecords.js"
import { makeInvoiceCharges } from "./InvoiceCharges.js"
import { makeInvoicePayments } from "./InvoicePayments.js"
import { NativeBilling } from "./NativeBilling.js"
import { makeNativeSubscriptions } from "./NativeSubscriptions.js"
import { makeSubscriptionChanges } from "./SubscriptionChanges.js"
import { makeSubscriptionCreation } from "./SubscriptionCreation.js"
import { makeSubscriptionRenewals } from "./SubscriptionRenewals.js"

export class Subscriptions extends Context.Tag("core/Subscriptions")<
  Subscriptions,
  ResourceReads<Subscription, SubscriptionNotFound, SubscriptionListFilter> & {
    /**
     * Writes the subscription (`trialing`, or `incomplete` with its first invoice) and charges the first
     * period through the payments service: paid → `active`; 3D Secure → stays `incomplete` with the
     * action in `latest_invoice.payment.next_action`; declined → `SubscriptionDeclined` (402).
     */
    readonly create: (tenant: Tenant, input: CreateSubscription, run?: Running) => Effect.Effect<
      Subscription,
      ReferenceNotFound | BillingRequestInvalid | SubscriptionDeclined | ProviderNotUsable | NoProviderAvailable
    >
    readonly update: (tenant: Tenant, id: string, input: UpdateSubscription) => Effect.Effect<
      Subscription,
      SubscriptionNotFound | SubscriptionFinal | ReferenceNotFound | BillingRequestInvalid | ProviderNotUsable
    >
    readonly cancel: (tenant: Tenant, id: string, input: CancelSubscription) => Effect.Effect<
      Subscription,
      SubscriptionNotFound | SubscriptionFinal | ProviderNotUsable
    >
    /** Does what is due for one subscription at the current time (renewal, retry, trial end, expiry). */
    readonly runDue: (tenant: Tenant, subscriptionId: string) => Effect.Effect<void>
    /** The schedule's work as the worker runs it: at the current time, or at its due time on a test clock. */
    readonly runClaimed: (due: DueSubscription) => Effect.Effect<void>
    /** A payment of an invoice that succeeded later (3D Secure completed, a PSP's webhook) pays it. */
    readonly consumer: EventConsumer
    readonly jobs: ReadonlyArray<Job>
  }
>() {
  static readonly layer = Layer.effect(Subscriptions, Effect.suspend(() => make)).pipe(
    Layer.provide(
      Layer.mergeAll(
        IdGenerator.layer,
        Connectors.layer,
        ProviderResolution.layer,
        Payments.layer,
        Refunds.layer,
        BillingRecords.layer,
        NativeBilling.layer,
        IdempotentRequests.layer
      )
    )
  )
}

/**
 * The subscriptions service, put together from its use cases: the merchant's requests
 * (`SubscriptionCreation`, `SubscriptionChanges`), the billing run (`SubscriptionRenewals`), the PSP's
 * side of native subscriptions (`NativeSubscriptions`), and the outbox consumer of invoice payments
 * (`InvoicePayments`), all charging invoices the same way (`InvoiceCharges`).
 */
const make = Effect.gen(function*() {
  const records = yield* BillingRecords
  const repository = yield* SubscriptionsRepository
  const charges = yield* makeInvoiceCharges
  const native = yield* makeNativeSubscriptions
  const renewals = yield* makeSubscriptionRenewals(charges, native)
  const { cancel, update } = yield* makeSubscriptionChanges(charges, native)
  return Subscriptions.of({
    create: yield* makeSubscriptionCreation(charges, native, renewals),
    update,
    cancel,
    retrieve: (tenant, id) => Effect.flatMap(records.subscription(tenant, id), (record) => records.subscriptionView(tenant, record)),
    list: (tenant, filter, page) =>
      Effect.flatMap(
        repository.list(tenant, filter, page),
        (found) => Effect.map(Effect.forEach(found.data, (record) => records.subscriptionView(tenant, record)), (data) => ({ ...found, data }))
      ),
    runDue: renewals.runDue,
    runClaimed: renewals.runClaimed,
    consumer: yield* makeInvoicePayments(charges),
    jobs: [renewals.job]
  })
})
