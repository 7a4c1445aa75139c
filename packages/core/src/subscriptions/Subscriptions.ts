import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import type { Payment } from "../payments/Payment.js"
import { Payments } from "../payments/Payments.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { drainLeased } from "../ports/LeasedWork.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import type { PaymentConnector } from "../providers/PaymentConnector.js"
import { NoProviderAvailable, ProviderNotUsable, ProviderResolution } from "../providers/ProviderResolution.js"
import { Refunds } from "../refunds/Refunds.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { BillingRecords } from "./BillingRecords.js"
import { dueAt, expiryOf, IN_FLIGHT_RECHECK } from "./BillingSchedule.js"
import { atTime } from "./BillingTime.js"
import { nextBoundary, periodBoundary } from "./BillingPeriod.js"
import { CustomersRepository } from "./CustomersRepository.js"
import { Dunning, nextRetryAt } from "./DunningSchedule.js"
import { InvoiceRecord } from "./Invoice.js"
import { NativeBilling } from "./NativeBilling.js"
import { InvoicesRepository } from "./InvoicesRepository.js"
import type { Plan } from "./Plan.js"
import { PlansRepository } from "./PlansRepository.js"
import {
  type CancelSubscription,
  type CreateSubscription,
  type Subscription,
  type SubscriptionListFilter,
  SubscriptionRecord,
  type UpdateSubscription
} from "./Subscription.js"
import {
  BillingRequestInvalid,
  ReferenceNotFound,
  SubscriptionDeclined,
  SubscriptionFinal,
  type SubscriptionNotFound
} from "./SubscriptionErrors.js"
import { type DueSubscription, SubscriptionsRepository } from "./SubscriptionsRepository.js"
import { TestClocksRepository } from "./TestClocksRepository.js"
import { isFinal, transition } from "./SubscriptionTransitions.js"

/** Which charge of an invoice: the first of a subscription (customer present), a period's, a dunning retry. */
type ChargeKind = "first" | "renewal" | "retry"

export class Subscriptions extends Context.Tag("core/Subscriptions")<Subscriptions, {
  /**
   * Writes the subscription (`trialing`, or `incomplete` with its first invoice) and charges the first
   * period through the payments service: paid → `active`; 3D Secure → stays `incomplete` with the
   * action in `latest_invoice.payment.next_action`; declined → `SubscriptionDeclined` (402).
   */
  readonly create: (tenant: Tenant, input: CreateSubscription) => Effect.Effect<
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
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<Subscription, SubscriptionNotFound>
  readonly list: (tenant: Tenant, filter: SubscriptionListFilter, page: PageRequest) => Effect.Effect<
    Page<Subscription>,
    InvalidCursor
  >
  /** Does what is due for one subscription at the current time (renewal, retry, trial end, expiry). */
  readonly runDue: (tenant: Tenant, subscriptionId: string) => Effect.Effect<void>
  /** The schedule's work as the worker runs it: at the current time, or at its due time on a test clock. */
  readonly runClaimed: (due: DueSubscription) => Effect.Effect<void>
  /** A payment of an invoice that succeeded later (3D Secure completed, a PSP's webhook) pays it. */
  readonly consumer: EventConsumer
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(Subscriptions, Effect.suspend(() => make))
}

const make = Effect.gen(function*() {
  const records = yield* BillingRecords
  const repository = yield* SubscriptionsRepository
  const invoices = yield* InvoicesRepository
  const customers = yield* CustomersRepository
  const plans = yield* PlansRepository
  const clocks = yield* TestClocksRepository
  const payments = yield* Payments
  const refunds = yield* Refunds
  const resolution = yield* ProviderResolution
  const connectors = yield* Connectors
  const nativeBilling = yield* NativeBilling
  const transactions = yield* Transactions
  const ids = yield* IdGenerator

  /** Runs `effect` at the time of test clock `clockId` (frozen), or now without one. */
  const onClock = (tenant: Tenant, clockId: string | null) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    clockId === null ? effect : Effect.flatMap(clocks.find(tenant, clockId), Option.match({
      onNone: () => effect,
      onSome: (clock) => atTime(clock.frozen_time.epochMillis)(effect)
    }))

  const plus = (time: DateTime.Utc, duration: Duration.Duration) => DateTime.addDuration(time, duration)
  const fromMillis = (millis: number) => DateTime.unsafeMake(millis)

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

  /**
   * A charge still in flight when its subscription ended (its invoice voided meanwhile) that succeeds
   * anyway is refunded: the customer owes nothing on a void invoice. Refunding what is left of the
   * payment is safe to repeat, since the amount is reserved with the refund: a second run finds none.
   */
  const refundChargeOfVoidInvoice = (tenant: Tenant, invoiceId: string, payment: Payment) =>
    Effect.gen(function*() {
      const invoice = yield* Effect.orDie(records.invoice(tenant, invoiceId))
      if (invoice.status !== "void" || invoice.payment_id !== payment.id || payment.status !== "succeeded") return
      const refund = yield* refunds.create(tenant, payment.id, {
        reason: "invoice_void",
        metadata: { invoice: invoice.id, subscription: invoice.subscription_id }
      })
      yield* Effect.logInfo(`payment ${payment.id} of void invoice ${invoice.id} refunded by ${refund.id}`)
    }).pipe(Effect.catchTags({
      PaymentNotFound: Effect.die,
      PaymentNotRefundable: () => Effect.void,
      AmountTooLarge: () => Effect.void,
      RefundRefused: ({ refund }) =>
        Effect.logWarning(`the refund of payment ${payment.id} of void invoice ${invoiceId} was refused`, refund.failure)
    }))

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
          next_run_at: subscription.status === "incomplete" ? expiryOf(subscription) : plus(time, IN_FLIGHT_RECHECK)
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
      const retryAt = retryMillis === null ? null : fromMillis(retryMillis)
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

  const view = (tenant: Tenant, record: SubscriptionRecord) => records.subscriptionView(tenant, record)

  /** A first charge declined outright answers 402 with the (incomplete) subscription inside. */
  const conclude = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, subscriptionId)))
      const payment = subscription.latest_invoice?.payment ?? null
      const declined = subscription.status === "incomplete" &&
        (payment === null || payment.status === "failed" || payment.status === "canceled")
      if (!declined) return subscription
      return yield* new SubscriptionDeclined({
        subscription,
        code: payment?.failure?.code ?? "provider_unavailable",
        message: payment?.failure?.message ?? "No payment provider could take the first charge."
      })
    })

  const notNative = (message: string) => new BillingRequestInvalid({ param: "engine", code: "engine_not_supported", message })

  /** The connector of a subscription's connection, with its subscriptions capability. */
  const nativeConnector = (tenant: Tenant, provider: string) =>
    Effect.gen(function*() {
      const connection = yield* resolution.byName(tenant, provider)
      const connector: PaymentConnector = yield* Effect.orDie(connectors.forConnection(connection))
      return connector.subscriptions
    })

  /**
   * Asks the PSP to run a native subscription (idempotent on our id), and keeps the PSP's id. Done
   * again when the same request is repeated after the PSP could not be reached.
   */
  const startAtPsp = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      if (subscription.provider_subscription_id !== null || final(subscription)) return
      const plan = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, subscription.plan_id), (option) => option))
      const customer = yield* Effect.orDie(Effect.flatMap(customers.find(tenant, subscription.customer_id), (option) => option))
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* Effect.dieMessage(`provider ${subscription.provider} lost its subscriptions`)
      const started = yield* capability.create({
        reference: subscription.id,
        amount: plan.amount,
        currency: plan.currency,
        interval: plan.interval,
        intervalCount: plan.interval_count,
        startMillis: subscription.created_at.epochMillis,
        trialEndMillis: subscription.trial_end === null ? null : subscription.trial_end.epochMillis,
        paymentMethod: { type: "card", token: subscription.payment_method },
        customer: { id: customer.id, email: customer.email, name: customer.name },
        testClock: subscription.test_clock !== null
      }).pipe(Effect.mapError((error) =>
        new NoProviderAvailable({ reason: `the PSP could not start the subscription (${error._tag}); repeat the request` })
      ))
      yield* transactions.run(Effect.flatMap(
        records.lockSubscription(tenant, subscriptionId),
        (locked) =>
          records.saveSubscription(tenant, locked, {
            provider_subscription_id: started.pspSubscriptionId,
            // On a test clock the PSP's simulated time moves with the clock's advances (`runNative`),
            // starting with the first charge, due at once (or at the trial's end).
            next_run_at: locked.test_clock === null ? null : locked.trial_end ?? locked.created_at
          })
      ))
    })

  /**
   * A native subscription on a test clock, at the clock's time: the PSP's simulated clock is moved
   * to it, and what the PSP reports is taken through the same normalizer as its webhooks (which
   * follow, and then change nothing). Off a test clock the PSP's own clock runs it: nothing to do.
   */
  const runNative = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      const pspSubscriptionId = subscription.provider_subscription_id
      const keep = (next_run_at: DateTime.Utc | null) =>
        transactions.run(Effect.flatMap(
          records.lockSubscription(tenant, subscriptionId),
          (locked) => records.saveSubscription(tenant, locked, { next_run_at: final(locked) ? null : next_run_at })
        ))
      if (subscription.test_clock === null || pspSubscriptionId === null || final(subscription)) return yield* keep(null)
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* keep(null)
      const time = yield* now
      const advanced = yield* Effect.either(capability.advance({ pspSubscriptionId, toMillis: time.epochMillis }))
      if (advanced._tag === "Left") {
        yield* Effect.logWarning(`the PSP could not advance native subscription ${subscriptionId}`, advanced.left)
        return yield* keep(plus(time, IN_FLIGHT_RECHECK))
      }
      for (const report of advanced.right.reports) yield* nativeBilling.apply(tenant, subscription.provider, report)
      yield* keep(advanced.right.nextRunMillis === null ? null : fromMillis(advanced.right.nextRunMillis))
    })

  /**
   * `engine: native`: the PSP keeps the schedule. The subscription is written `incomplete` (or
   * `trialing`) with no invoice; every later move comes from the PSP's reports (`NativeBilling`): its
   * webhooks, or, on a test clock, its answers to the clock's advances (the webhooks then repeat them).
   */
  /** Where a new subscription's charges go: its forced provider, or routing's choice for the plan's amount. */
  const providerFor = (tenant: Tenant, input: CreateSubscription, plan: Plan) =>
    Effect.gen(function*() {
      // The card's country from its token, as the payments of its invoices are routed.
      const method = { type: "card", token: input.payment_method }
      const card = yield* knownCardOf(connectors, method)
      return yield* resolution.forPayment(tenant, {
        provider: input.provider,
        ...routingFactsOf({ amount: plan.amount, currency: plan.currency, payment_method: method }, card)
      })
    })

  /**
   * A new subscription as it starts: in its trial, or awaiting its first charge for a first period
   * anchored now. The worker's schedule (`next_run_at`) and the first invoice are each engine's to add.
   */
  const startingRecord = (
    tenant: Tenant,
    input: CreateSubscription,
    customer: { readonly id: string; readonly test_clock: string | null },
    plan: Plan,
    connection: { readonly name: string },
    engine: SubscriptionRecord["engine"]
  ) =>
    Effect.gen(function*() {
      const createdAt = yield* now
      const trialDays = input.trial_days ?? plan.trial_days ?? 0
      const trialEnd = trialDays > 0 ? plus(createdAt, Duration.days(trialDays)) : null
      const anchor = trialEnd ?? createdAt
      return new SubscriptionRecord({
        id: yield* ids.make("sub"),
        status: trialEnd === null ? "incomplete" : "trialing",
        customer_id: customer.id,
        plan_id: plan.id,
        provider: connection.name,
        provider_forced: input.provider !== undefined,
        engine,
        payment_method: input.payment_method,
        return_url: input.return_url ?? null,
        current_period_start: createdAt,
        current_period_end: trialEnd ?? fromMillis(periodBoundary(anchor.epochMillis, plan, 1)),
        billing_cycle_anchor: anchor,
        cancel_at_period_end: false,
        canceled_at: null,
        trial_end: trialEnd,
        pending_update: null,
        provider_subscription_id: null,
        test_clock: customer.test_clock,
        metadata: input.metadata ?? {},
        latest_invoice_id: null,
        // The PSP runs a native schedule: the worker never bills it (on a test clock, it moves the PSP's clock).
        next_run_at: null,
        created_at: createdAt,
        updated_at: createdAt,
        livemode: tenant.livemode
      })
    })

  const createNative = (
    tenant: Tenant,
    input: CreateSubscription,
    customer: { readonly id: string; readonly test_clock: string | null },
    plan: Plan
  ) =>
    Effect.gen(function*() {
      const { connection } = yield* providerFor(tenant, input, plan)
      if ((yield* nativeConnector(tenant, connection.name)) === undefined) {
        return yield* notNative(
          `Provider '${connection.name}' (${connection.type}) does not run subscriptions itself; use engine 'orchestrator'.`
        )
      }
      const scope = yield* IdempotencyScope
      return yield* onClock(tenant, customer.test_clock)(Effect.gen(function*() {
        const record = yield* startingRecord(tenant, input, customer, plan, connection, "native")
        const id = record.id
        yield* transactions.run(Effect.zipRight(records.createSubscription(tenant, record), scope.attach(id)))
        yield* startAtPsp(tenant, id)
        if (customer.test_clock !== null) yield* runDue(tenant, id)
        return yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, id)))
      }))
    })

  /**
   * A merchant's change to a native subscription goes to the PSP first, which runs it; what the PSP
   * took is then recorded here as for the other engine. A plan change is not offered natively yet.
   */
  const tellPsp = (
    tenant: Tenant,
    subscription: SubscriptionRecord,
    change: { readonly update: UpdateSubscription } | { readonly cancel: CancelSubscription }
  ) =>
    Effect.gen(function*() {
      const pspSubscriptionId = subscription.provider_subscription_id
      if (pspSubscriptionId === null) return
      const capability = yield* nativeConnector(tenant, subscription.provider)
      if (capability === undefined) return yield* Effect.dieMessage(`provider ${subscription.provider} lost its subscriptions`)
      const told = "cancel" in change
        ? capability.cancel({ pspSubscriptionId, atPeriodEnd: change.cancel.at_period_end === true })
        : change.update.payment_method === undefined
        ? Effect.void
        : capability.updatePaymentMethod({ pspSubscriptionId, paymentMethod: { type: "card", token: change.update.payment_method } })
      yield* told.pipe(Effect.mapError((error) =>
        new ProviderNotUsable({ provider: subscription.provider, reason: `the PSP could not be reached (${error._tag}); repeat the request` })
      ))
    })

  const create = Effect.fn("Subscriptions.create")(function*(tenant: Tenant, input: CreateSubscription) {
    const scope = yield* IdempotencyScope
    if (Option.isSome(scope.recovered)) {
      const recovered = yield* Effect.orDie(records.subscription(tenant, scope.recovered.value))
      if (recovered.engine === "native") {
        yield* startAtPsp(tenant, recovered.id)
        return yield* view(tenant, yield* Effect.orDie(records.subscription(tenant, recovered.id)))
      }
      if (recovered.status === "incomplete" && recovered.latest_invoice_id !== null) {
        yield* onClock(tenant, recovered.test_clock)(chargeAndSettle(tenant, recovered.id, recovered.latest_invoice_id, "first"))
      }
      return yield* conclude(tenant, recovered.id)
    }
    const customer = yield* Effect.flatMap(customers.find(tenant, input.customer), Option.match({
      onNone: () => Effect.fail(new ReferenceNotFound({ param: "customer", id: input.customer })),
      onSome: Effect.succeed
    }))
    const plan = yield* Effect.flatMap(plans.find(tenant, input.plan), Option.match({
      onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan })),
      onSome: Effect.succeed
    }))
    if (input.engine === "native") return yield* createNative(tenant, input, customer, plan)
    const { connection } = yield* providerFor(tenant, input, plan)
    return yield* onClock(tenant, customer.test_clock)(Effect.gen(function*() {
      const base = yield* startingRecord(tenant, input, customer, plan, connection, "orchestrator")
      const { created_at: createdAt, current_period_end: periodEnd, id } = base
      const invoiceId = base.trial_end === null ? yield* ids.make("in") : null
      yield* transactions.run(Effect.gen(function*() {
        // The subscription first (its event shows no invoice yet), then its first invoice.
        const created = yield* records.createSubscription(
          tenant,
          new SubscriptionRecord({ ...base, latest_invoice_id: null, next_run_at: dueAt(base, null) })
        )
        if (invoiceId !== null) {
          yield* records.createInvoice(tenant, new InvoiceRecord({
            id: invoiceId,
            subscription_id: id,
            customer_id: customer.id,
            plan_id: plan.id,
            status: "open",
            billing_reason: "subscription_create",
            amount_due: plan.amount,
            amount_paid: 0,
            currency: plan.currency,
            period_start: createdAt,
            period_end: periodEnd,
            attempt_count: 0,
            next_payment_attempt: null,
            payment_id: null,
            test_clock: customer.test_clock,
            created_at: createdAt,
            updated_at: createdAt,
            livemode: tenant.livemode
          }))
          yield* records.saveSubscription(tenant, created, { latest_invoice_id: invoiceId })
        }
        yield* scope.attach(id)
      }))
      if (invoiceId !== null) yield* chargeAndSettle(tenant, id, invoiceId, "first")
      return yield* conclude(tenant, id)
    }))
  })

  const final = (record: SubscriptionRecord) => isFinal(record.status)

  const refuseFinal = (tenant: Tenant, record: SubscriptionRecord) =>
    Effect.flatMap(view(tenant, record), (subscription) => Effect.fail(new SubscriptionFinal({ subscription })))

  const update = Effect.fn("Subscriptions.update")(function*(tenant: Tenant, id: string, input: UpdateSubscription) {
    const found = yield* records.subscription(tenant, id)
    if (final(found)) return yield* refuseFinal(tenant, found)
    if (found.engine === "native" && (input.plan !== undefined || input.cancel_at_period_end !== undefined)) {
      return yield* new BillingRequestInvalid({
        param: input.plan !== undefined ? "plan" : "cancel_at_period_end",
        code: "engine_not_supported",
        message: input.plan !== undefined
          ? "A plan change of an engine 'native' subscription is not supported yet."
          : "Cancel an engine 'native' subscription with POST /v1/subscriptions/{id}/cancel (at_period_end)."
      })
    }
    if (found.engine === "native") yield* tellPsp(tenant, found, { update: input })
    const plan = input.plan === undefined ? undefined : yield* Effect.flatMap(plans.find(tenant, input.plan), Option.match({
      onNone: () => Effect.fail(new ReferenceNotFound({ param: "plan", id: input.plan! })),
      onSome: Effect.succeed
    }))
    if (plan !== undefined) {
      const current = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, found.plan_id), (option) => option))
      if (plan.currency !== current.currency) {
        return yield* new BillingRequestInvalid({
          param: "plan",
          code: "currency_mismatch",
          message: `The new plan charges ${plan.currency}; this subscription is billed in ${current.currency}.`
        })
      }
    }
    const updated = yield* onClock(tenant, found.test_clock)(transactions.run(Effect.gen(function*() {
      const locked = yield* records.lockSubscription(tenant, id)
      if (final(locked)) return null
      const changes: Partial<SubscriptionRecord> = {
        ...(plan === undefined ? {} : {
          pending_update: plan.id === locked.plan_id
            ? null
            : { plan_id: plan.id, effective_at: locked.current_period_end }
        }),
        ...(input.cancel_at_period_end === undefined ? {} : { cancel_at_period_end: input.cancel_at_period_end }),
        ...(input.payment_method === undefined ? {} : { payment_method: input.payment_method }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata })
      }
      return yield* records.moveSubscription(tenant, locked, locked.status, changes)
    })))
    if (updated === null) return yield* refuseFinal(tenant, yield* records.subscription(tenant, id))
    return yield* view(tenant, updated)
  })

  const cancel = Effect.fn("Subscriptions.cancel")(function*(tenant: Tenant, id: string, input: CancelSubscription) {
    const found = yield* records.subscription(tenant, id)
    if (final(found)) return yield* refuseFinal(tenant, found)
    if (found.engine === "native") yield* tellPsp(tenant, found, { cancel: input })
    const updated = yield* onClock(tenant, found.test_clock)(transactions.run(Effect.gen(function*() {
      const locked = yield* records.lockSubscription(tenant, id)
      if (final(locked)) return null
      if (input.at_period_end === true) {
        return yield* records.moveSubscription(tenant, locked, locked.status, { cancel_at_period_end: true })
      }
      yield* voidOpenInvoice(tenant, locked)
      return yield* records.moveSubscription(tenant, locked, "canceled", {
        canceled_at: yield* now,
        cancel_at_period_end: false,
        next_run_at: null
      })
    })))
    if (updated === null) return yield* refuseFinal(tenant, yield* records.subscription(tenant, id))
    if (updated.status === "canceled") yield* releaseLatestPayment(tenant, id)
    return yield* view(tenant, updated)
  })

  /** Starts the next period (or the first paid one after a trial): its invoice, then its charge. */
  const renew = (tenant: Tenant, subscription: SubscriptionRecord) =>
    Effect.gen(function*() {
      const time = yield* now
      const pending = subscription.pending_update
      const planId = pending !== null && pending.effective_at.epochMillis <= subscription.current_period_end.epochMillis
        ? pending.plan_id
        : subscription.plan_id
      const plan = yield* Effect.orDie(Effect.flatMap(plans.find(tenant, planId), (option) => option))
      const start = subscription.current_period_end
      const anchor = planId === subscription.plan_id ? subscription.billing_cycle_anchor : start
      const end = fromMillis(nextBoundary(anchor.epochMillis, plan, start.epochMillis))
      const invoiceId = yield* ids.make("in")
      const started = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lockSubscription(tenant, subscription.id)
        // Read before the lock: a cancel, or another run of this renewal, may have come in between.
        if (
          final(locked) || locked.cancel_at_period_end !== subscription.cancel_at_period_end ||
          locked.latest_invoice_id !== subscription.latest_invoice_id ||
          locked.current_period_end.epochMillis !== subscription.current_period_end.epochMillis
        ) return false
        yield* records.createInvoice(tenant, new InvoiceRecord({
          id: invoiceId,
          subscription_id: subscription.id,
          customer_id: subscription.customer_id,
          plan_id: plan.id,
          status: "open",
          billing_reason: "subscription_cycle",
          amount_due: plan.amount,
          amount_paid: 0,
          currency: plan.currency,
          period_start: start,
          period_end: end,
          attempt_count: 0,
          next_payment_attempt: null,
          payment_id: null,
          test_clock: subscription.test_clock,
          created_at: time,
          updated_at: time,
          livemode: tenant.livemode
        }))
        // Until the charge is settled, the renewal is in flight: looked at again if this run is cut short.
        yield* records.saveSubscription(tenant, locked, {
          latest_invoice_id: invoiceId,
          next_run_at: plus(time, IN_FLIGHT_RECHECK)
        })
        return true
      }))
      if (started) yield* chargeAndSettle(tenant, subscription.id, invoiceId, "renewal")
    })

  const endNow = (tenant: Tenant, subscriptionId: string, input: "period_ended_canceling" | "incomplete_expired") =>
    Effect.zipRight(
      transactions.run(Effect.gen(function*() {
        const locked = yield* records.lockSubscription(tenant, subscriptionId)
        const to = transition(locked.status, input)
        if (to === null) return
        if (input === "incomplete_expired") yield* voidOpenInvoice(tenant, locked)
        yield* records.moveSubscription(tenant, locked, to, {
          next_run_at: null,
          ...(to === "canceled" ? { canceled_at: yield* now, cancel_at_period_end: false } : {})
        })
      })),
      // An expired first charge's 3D Secure must not be completed after the subscription ended.
      releaseLatestPayment(tenant, subscriptionId)
    )

  const runDue = Effect.fn("Subscriptions.runDue")(function*(tenant: Tenant, subscriptionId: string) {
    const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
    const time = yield* now
    if (subscription.next_run_at === null || DateTime.lessThan(time, subscription.next_run_at)) return
    if (subscription.engine === "native") return yield* runNative(tenant, subscriptionId)
    const invoice = subscription.latest_invoice_id === null
      ? null
      : yield* Effect.orDie(records.invoice(tenant, subscription.latest_invoice_id))
    switch (subscription.status) {
      case "incomplete":
        if (!DateTime.lessThan(time, expiryOf(subscription))) yield* endNow(tenant, subscription.id, "incomplete_expired")
        else if (invoice !== null) yield* chargeAndSettle(tenant, subscription.id, invoice.id, "first")
        return
      case "trialing":
      case "active":
        if (invoice !== null && invoice.status === "open") {
          // A renewal cut short: its invoice is finished, not made again.
          yield* chargeAndSettle(tenant, subscription.id, invoice.id, "renewal")
        } else if (subscription.cancel_at_period_end) {
          yield* endNow(tenant, subscription.id, "period_ended_canceling")
        } else {
          yield* renew(tenant, subscription)
        }
        return
      case "past_due":
        if (invoice !== null && invoice.status === "open") yield* chargeAndSettle(tenant, subscription.id, invoice.id, "retry")
        return
      default:
        // Nothing more will happen to it: it is no longer due.
        yield* transactions.run(Effect.flatMap(
          records.lockSubscription(tenant, subscription.id),
          (locked) => records.saveSubscription(tenant, locked, { next_run_at: null })
        ))
    }
  })

  const runClaimed = (due: DueSubscription) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(due.tenant, due.subscriptionId))
      const step = runDue(due.tenant, due.subscriptionId)
      yield* subscription.test_clock === null ? step : atTime(due.dueAt.epochMillis)(step)
    })

  const billDue = drainLeased({
    claim: repository.claimDue,
    handle: ({ item, token }) => Effect.ensuring(runClaimed(item), repository.release(item.subscriptionId, token)),
    leaseFor: Duration.minutes(2),
    concurrency: 4,
    maxPerPass: 500
  }).pipe(Effect.withSpan("Subscriptions.billDue"))

  const consumer: EventConsumer = {
    name: "subscriptions",
    consume: (organizationId, event) =>
      // Only an invoice's payment carries its invoice in its metadata (see the charge above):
      // every other payment passes without a read.
      event.type !== "payment.succeeded" || (event.data.object as Payment).metadata?.invoice === undefined
        ? Effect.void
        : Effect.gen(function*() {
          const payment = event.data.object as Payment
          const tenant = { organizationId, livemode: payment.livemode }
          const invoice = yield* invoices.findByPayment(tenant, payment.id)
          if (Option.isNone(invoice)) return
          const subscription = yield* Effect.orDie(records.subscription(tenant, invoice.value.subscription_id))
          const current = yield* Effect.orDie(payments.retrieve(tenant, payment.id))
          yield* onClock(tenant, subscription.test_clock)(Effect.zipRight(
            settle(tenant, invoice.value.id, current),
            // Read after settling: a void invoice stays void, so none slips between the two.
            refundChargeOfVoidInvoice(tenant, invoice.value.id, current)
          ))
        })
  }

  return Subscriptions.of({
    create,
    update,
    cancel,
    retrieve: (tenant, id) => Effect.flatMap(records.subscription(tenant, id), (record) => view(tenant, record)),
    list: (tenant, filter, page) =>
      Effect.flatMap(repository.list(tenant, filter, page), (found) =>
        Effect.map(Effect.forEach(found.data, (record) => view(tenant, record)), (data) => ({ ...found, data }))),
    runDue,
    runClaimed,
    consumer,
    jobs: [{ name: "bill-subscriptions", every: "5 seconds", run: billDue }]
  })
})
