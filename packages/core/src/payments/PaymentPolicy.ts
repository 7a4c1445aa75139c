import { Context, Duration } from "effect"

/**
 * How payments are tried, waited for and followed up, as data with sane defaults.
 * Hard declines are never retried; a failure whose code is on `retryableCodes` gets one more
 * attempt, with a new PSP idempotency reference, on the same connection.
 */
export class PaymentPolicy extends Context.Reference<PaymentPolicy>()("core/PaymentPolicy", {
  defaultValue: () => ({
    retryableCodes: ["processing_error", "provider_unavailable", "try_again_later"] as ReadonlyArray<string>,
    attemptsPerConnection: 2,
    /** A PSP call that has not answered by then is treated as "outcome unknown". */
    callTimeout: Duration.seconds(30),
    /** Unanswered attempts older than this are reconciled by the worker. */
    reconcileAfter: Duration.minutes(2),
    /** How long a worker holds one payment or refund it recovers: above two PSP calls with their timeout. */
    recoveryLease: Duration.minutes(2),
    /** Manual-capture authorizations are released after 7 days, like Stripe's. */
    authorizationLifetime: Duration.days(7),
    /** A 3DS challenge nobody finished is canceled after a day. */
    actionLifetime: Duration.days(1),
    /** How often the PSP is asked about a 3DS challenge whose customer has not come back. */
    actionPollInterval: Duration.minutes(15)
  })
}) {}
