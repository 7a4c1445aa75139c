import { Context, Duration } from "effect"
import type { FairShare } from "../LeasedWork.js"

/**
 * What happens after a failed attempt, by failure code: how many more tries on the same connection,
 * and whether a routed payment then moves on to the next eligible connection. A code that is not
 * listed (a decline: `card_declined`, `insufficient_funds`, …) is final, and never crosses providers.
 */
export interface RetryDecision {
  readonly codes: ReadonlyArray<string>
  readonly retriesOnSameConnection: number
  /** A routed payment moves on to the next eligible connection once these retries are used. */
  readonly cascade: boolean
  /** A routed payment that has somewhere else to go moves on at once, skipping the retries. */
  readonly cascadeFirst: boolean
}

export const DEFAULT_RETRY_DECISIONS: ReadonlyArray<RetryDecision> = [
  // Nothing reached the PSP: another PSP, if the payment has one; else the same one once more.
  { codes: ["provider_unavailable"], retriesOnSameConnection: 1, cascade: true, cascadeFirst: true },
  // The PSP failed while processing: worth one more try there, then another PSP.
  { codes: ["processing_error", "try_again_later"], retriesOnSameConnection: 1, cascade: true, cascadeFirst: false },
  // The PSP turned the request away unprocessed (HTTP 429): asking it again now only adds to its load.
  { codes: ["rate_limited"], retriesOnSameConnection: 0, cascade: true, cascadeFirst: true }
]

/** How payments are tried, waited for and followed up, as data with sane defaults. */
export class PaymentPolicy extends Context.Reference<PaymentPolicy>()("core/PaymentPolicy", {
  defaultValue: () => ({
    retryDecisions: DEFAULT_RETRY_DECISIONS,
    /** A PSP call that has not answered by then is treated as "outcome unknown". */
    callTimeout: Duration.seconds(30),
    /** Unanswered refunds older than this are reconciled by the worker. */
    reconcileAfter: Duration.minutes(2),
    /**
     * When the worker asks the PSP about a payment attempt nobody heard back from, counted from when
     * its call gave up (`unansweredSince`; from when it was sent while it is still pending): early,
     * as a late answer is usually a few seconds late, then every `recoveryLease`.
     */
    reconcileSchedule: [Duration.seconds(5), Duration.seconds(30), Duration.minutes(2)] as ReadonlyArray<Duration.Duration>,
    /** How long a worker holds one payment or refund it recovers: above two PSP calls with their timeout. */
    recoveryLease: Duration.minutes(2),
    /** Payments (or refunds) each recovery job works on at once in one worker process. */
    recoveryWorkers: 8,
    /**
     * How recovery shares those workers (see `FairShare`): each provider connection of an
     * organization's mode is a lane, so one slow connection holds 2 of them at most (every process
     * together), one organization's mode 4, and another organization never waits behind them.
     */
    recoveryShare: { perTenant: 4, perLane: 2 } as FairShare,
    /** Manual-capture authorizations are released after 7 days, like Stripe's. */
    authorizationLifetime: Duration.days(7),
    /** A 3DS challenge nobody finished is canceled after a day. */
    actionLifetime: Duration.days(1),
    /**
     * When the worker asks the PSP about a payment waiting on its customer (3DS, a wallet's approval),
     * counted from when it began waiting: early, as a customer who finished at the PSP and never came
     * back (closed the tab, lost the redirect) usually did so within minutes, then every
     * `actionPollInterval`.
     */
    actionPollSchedule: [Duration.minutes(1), Duration.minutes(2), Duration.minutes(5), Duration.minutes(10)] as ReadonlyArray<
      Duration.Duration
    >,
    /** How often the PSP is asked about a waiting payment past `actionPollSchedule`. */
    actionPollInterval: Duration.minutes(15)
  })
}) {}
