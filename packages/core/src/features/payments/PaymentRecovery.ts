import { Context, DateTime, Duration, Effect, Layer } from "effect"
import type { Leased, LeaseRequest } from "../../domain/LeasedWork.js"
import { awaitsOutcome, Failure } from "../../domain/payments/Payment.js"
import { PaymentPolicy } from "../../domain/payments/PaymentPolicy.js"
import { firstReconcileAfter, nextReconcileAt, unansweredSince } from "../../domain/payments/ReconcileSchedule.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { type PaymentRef, PaymentsRepository, type PaymentWork } from "../../ports/PaymentsRepository.js"
import { Connectors } from "../connections/Connectors.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { drainLeased, type LeasedPool, makeLeasedPool } from "../jobs/LeasedDrain.js"
import { traced } from "../observability/Traced.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { cancelNow, conclude } from "./PaymentConclusion.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { sendAttempts } from "./PaymentSending.js"
import { recordSent, refresh } from "./PaymentSettlement.js"
import { paymentSteps } from "./PaymentSteps.js"

const before = (time: DateTime.Utc, duration: Duration.Duration) => DateTime.subtract(time, { millis: Duration.toMillis(duration) })

/**
 * What the worker does for payments: settle attempts nobody heard back from, follow up payments
 * waiting on the customer or a capture, and release what waited too long. Its jobs carry the policy.
 */
export class PaymentRecovery extends Context.Tag("core/PaymentRecovery")<PaymentRecovery, {
  /**
   * Settles an attempt nobody heard back from by sending it again under its own reference, as a
   * client retry would: the PSP answers what it did with it, or does it now, once. Concluding "it
   * never arrived" instead would race with a client's retry that is sending it at this very moment.
   */
  readonly reconcile: (ref: PaymentRef) => Effect.Effect<void>
  /**
   * Asks the PSP about a payment waiting on the customer (3DS) or on a capture, records what the PSP
   * already did (a customer who completed 3DS and closed the tab, a capture whose answer was lost),
   * and releases what waited past its lifetime.
   */
  readonly followUp: (ref: PaymentRef) => Effect.Effect<void>
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.scoped(PaymentRecovery, Effect.suspend(() => make)).pipe(
    Layer.provide(
      Layer.mergeAll(IdGenerator.layer, Connectors.layer, ProviderResolution.layer, PaymentRecords.layer, PaymentCalls.layer, IdempotentRequests.layer)
    )
  )
}

const make = Effect.gen(function*() {
  const steps = yield* paymentSteps
  const records = yield* PaymentRecords

  const reconcile = (ref: PaymentRef) =>
    Effect.gen(function*() {
      const payment = yield* Effect.orDie(records.load(ref.tenant, ref.paymentId))
      if (payment.status !== "processing" || !awaitsOutcome(payment.attempts.at(-1))) return
      const { payment: sent } = yield* recordSent(ref.tenant, yield* sendAttempts(ref.tenant, payment, { resend: true }))
      yield* Effect.ignore(conclude(ref.tenant, sent))
    }).pipe(Effect.provide(steps), traced("PaymentRecovery.reconcile"))

  const followUp = (ref: PaymentRef) =>
    Effect.gen(function*() {
      const policy = yield* PaymentPolicy
      const payment = yield* refresh(ref.tenant, yield* Effect.orDie(records.load(ref.tenant, ref.paymentId)))
      if (payment.status !== "requires_capture" && payment.status !== "requires_action") return
      const capture = payment.status === "requires_capture"
      const lifetime = capture ? policy.authorizationLifetime : policy.actionLifetime
      if (DateTime.lessThan(yield* now, DateTime.add(payment.updated_at, { millis: Duration.toMillis(lifetime) }))) return
      yield* cancelNow(
        ref.tenant,
        payment,
        capture
          ? new Failure({ code: "authorization_expired", message: "The authorization was not captured in time and was released." })
          : new Failure({ code: "action_expired", message: "The customer did not complete the required action in time." })
      ).pipe(Effect.ignore)
    }).pipe(Effect.provide(steps), traced("PaymentRecovery.followUp"))

  return PaymentRecovery.of({ reconcile, followUp, jobs: yield* recoveryJobs(reconcile, followUp) })
})

/** The worker's passes over the payments that need `reconcile` or `followUp`, on their schedules. */
const recoveryJobs = (reconcile: (ref: PaymentRef) => Effect.Effect<void>, followUp: (ref: PaymentRef) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    const repository = yield* PaymentsRepository
    // Each job's workers, shared by its passes: a pass that ran out of time leaves a call to a slow
    // PSP to end on its own, and the next pass takes up what is due with the other workers.
    const { recoveryWorkers } = yield* PaymentPolicy
    const reconciling = yield* makeLeasedPool(recoveryWorkers)
    const followingUp = yield* makeLeasedPool(recoveryWorkers)

    /**
     * One job pass over the payments that need `work`, each leased for as long as handling it can
     * take, and waiting that long (what spaces the questions out) once handled.
     */
    const pass = (work: (lease: LeaseRequest) => PaymentWork, leaseFor: Duration.Duration, pool: LeasedPool) =>
      Effect.flatMap(PaymentPolicy, (policy) =>
        drainLeased({
          claim: (lease) => repository.claimDue(work(lease), lease),
          handle: ({ item, token }) => Effect.ensuring(followUp(item), repository.finishClaim(item.paymentId, token)),
          leaseFor,
          concurrency: policy.recoveryWorkers,
          pool,
          share: policy.recoveryShare,
          maxPerPass: 200
        }))

    /**
     * Reconciles a claimed payment, then, if its attempt is still unanswered, holds it until the next
     * point of the schedule (the claim's lease only has to outlast the try itself).
     */
    const reconcileOnSchedule = ({ item, token }: Leased<PaymentRef>) =>
      Effect.gen(function*() {
        yield* reconcile(item)
        const policy = yield* PaymentPolicy
        const payment = yield* Effect.orDie(records.load(item.tenant, item.paymentId))
        const last = payment.attempts.at(-1)
        if (payment.status !== "processing" || !awaitsOutcome(last)) return yield* repository.finishClaim(item.paymentId, token)
        const at = nextReconcileAt(unansweredSince(last!, policy.callTimeout), yield* now, policy.reconcileSchedule, policy.recoveryLease)
        yield* repository.holdUntil(item.paymentId, token, at)
      }).pipe(Effect.onError(() => repository.finishClaim(item.paymentId, token)))

    const reconcileDue = Effect.flatMap(PaymentPolicy, (policy) =>
      drainLeased({
        claim: (lease) =>
          repository.claimDue(
            { _tag: "Unanswered", sentBefore: before(lease.now, firstReconcileAfter(policy.reconcileSchedule)), callTimeout: policy.callTimeout },
            lease
          ),
        handle: reconcileOnSchedule,
        leaseFor: policy.recoveryLease,
        concurrency: policy.recoveryWorkers,
        pool: reconciling,
        share: policy.recoveryShare,
        // While a slow PSP holds some workers, what comes due meanwhile is looked at within this.
        pollEvery: "1 second",
        maxPerPass: 200
      })).pipe(traced("PaymentRecovery.reconcileDue"))

    /**
     * Follows up a claimed challenge, then, if it still waits on its customer, holds it until the next
     * point of the poll schedule (counted from when it began waiting), past it every poll interval; one
     * that now waits on its PSP is released to reconciliation.
     */
    const followUpOnSchedule = ({ item, token }: Leased<PaymentRef>) =>
      Effect.gen(function*() {
        yield* followUp(item)
        const policy = yield* PaymentPolicy
        const payment = yield* Effect.orDie(records.load(item.tenant, item.paymentId))
        const at = yield* now
        // Now waiting on its PSP instead (a capture PENDING after the approval): reconciliation's at once.
        if (payment.status === "processing") return yield* repository.holdUntil(item.paymentId, token, at)
        if (payment.status !== "requires_action") return yield* repository.finishClaim(item.paymentId, token)
        yield* repository.holdUntil(item.paymentId, token, nextReconcileAt(payment.updated_at, at, policy.actionPollSchedule, policy.actionPollInterval))
      }).pipe(Effect.onError(() => repository.finishClaim(item.paymentId, token)))

    // A challenge is asked about on the poll schedule (its lease is what spaces the questions out); an
    // authorization once its lifetime is over.
    const followUpDue = Effect.flatMap(PaymentPolicy, (policy) =>
      Effect.zipWith(
        drainLeased({
          claim: (lease) =>
            repository.claimDue(
              { _tag: "Waiting", status: "requires_action", updatedBefore: before(lease.now, firstReconcileAfter(policy.actionPollSchedule)) },
              lease
            ),
          handle: followUpOnSchedule,
          leaseFor: policy.recoveryLease,
          concurrency: policy.recoveryWorkers,
          pool: followingUp,
          share: policy.recoveryShare,
          maxPerPass: 200
        }),
        pass(
          (lease) => ({ _tag: "Waiting", status: "requires_capture", updatedBefore: before(lease.now, policy.authorizationLifetime) }),
          policy.actionPollInterval,
          followingUp
        ),
        (challenges, authorizations) => challenges + authorizations
      )).pipe(traced("PaymentRecovery.followUpDue"))

    const jobs: ReadonlyArray<Job> = [
      // Every second: an unanswered attempt is looked at on its schedule's points, not up to a spacing later.
      { name: "reconcile-payments", every: "1 second", run: reconcileDue },
      { name: "follow-up-payments", every: "30 seconds", run: followUpDue }
    ]
    return jobs
  })
