import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import { AttemptPolicy } from "@orchestrator/core/payments/AttemptPolicy"
import { Payments } from "@orchestrator/core/payments/Payments"
import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { Refunds } from "@orchestrator/core/refunds/Refunds"
import { RefundsRepository } from "@orchestrator/core/refunds/RefundsRepository"
import { DateTime, Duration, Effect } from "effect"

const BATCH = 50

/** Leases outlive a PSP call with its timeout, so a slow reconciliation is never run twice at once. */
const LEASE = Duration.minutes(2)

const minus = (time: DateTime.Utc, duration: Duration.Duration) =>
  DateTime.subtract(time, { millis: Duration.toMillis(duration) })
const plus = (time: DateTime.Utc, duration: Duration.Duration) =>
  DateTime.add(time, { millis: Duration.toMillis(duration) })

/**
 * Payments whose PSP answer never arrived (timeout, crash): ask the PSP under the attempt's
 * reference and record what it says. One pass; returns how many it looked at.
 */
export const reconcilePayments = Effect.gen(function*() {
  const policy = yield* AttemptPolicy
  const repository = yield* PaymentsRepository
  const payments = yield* Payments
  const now = yield* DateTime.now
  const claimed = yield* repository.claimUnanswered({
    sentBefore: minus(now, policy.reconcileAfter),
    now,
    leaseUntil: plus(now, LEASE),
    limit: BATCH
  })
  yield* Effect.forEach(claimed, payments.reconcile, { discard: true, concurrency: 4 })
  return claimed.length
}).pipe(Effect.withSpan("Worker.reconcilePayments"))

/** Refunds still pending after the reconcile delay: ask the PSP how they ended. */
export const reconcileRefunds = Effect.gen(function*() {
  const policy = yield* AttemptPolicy
  const repository = yield* RefundsRepository
  const refunds = yield* Refunds
  const now = yield* DateTime.now
  const claimed = yield* repository.claimPending({
    createdBefore: minus(now, policy.reconcileAfter),
    now,
    leaseUntil: plus(now, LEASE),
    limit: BATCH
  })
  yield* Effect.forEach(claimed, refunds.reconcile, { discard: true, concurrency: 4 })
  return claimed.length
}).pipe(Effect.withSpan("Worker.reconcileRefunds"))

/**
 * Payments waiting on someone: 3DS challenges are asked about every 15 minutes (the customer may have
 * finished and closed the tab) and canceled after a day; authorizations are released after 7 days,
 * unless the PSP says they were captured.
 */
export const followUpPayments = Effect.gen(function*() {
  const policy = yield* AttemptPolicy
  const repository = yield* PaymentsRepository
  const payments = yield* Payments
  const now = yield* DateTime.now
  const leaseUntil = plus(now, policy.actionPollInterval)
  const due = [
    ...yield* repository.claimStale({
      status: "requires_action",
      updatedBefore: minus(now, policy.actionPollInterval),
      now,
      leaseUntil,
      limit: BATCH
    }),
    ...yield* repository.claimStale({
      status: "requires_capture",
      updatedBefore: minus(now, policy.authorizationLifetime),
      now,
      leaseUntil,
      limit: BATCH
    })
  ]
  yield* Effect.forEach(due, payments.followUp, { discard: true, concurrency: 4 })
  return due.length
}).pipe(Effect.withSpan("Worker.followUpPayments"))

/** Idempotency keys are kept 24 hours at least (decisions §7), then purged. */
export const IDEMPOTENCY_KEY_RETENTION = Duration.hours(24)

export const purgeIdempotencyKeys = Effect.gen(function*() {
  const keys = yield* IdempotencyKeysRepository
  const now = yield* DateTime.now
  return yield* keys.purge({ createdBefore: minus(now, IDEMPOTENCY_KEY_RETENTION), now })
}).pipe(Effect.withSpan("Worker.purgeIdempotencyKeys"))
