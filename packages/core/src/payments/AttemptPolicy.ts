import { Context, Duration } from "effect"

/**
 * When a PSP call is tried again (decisions §4), as data with sane defaults.
 * Hard declines are never retried; a failure on this list gets one more attempt, with a new
 * PSP idempotency reference, on the same connection.
 */
export class AttemptPolicy extends Context.Reference<AttemptPolicy>()("core/AttemptPolicy", {
  defaultValue: () => ({
    retryableCodes: ["processing_error", "provider_unavailable", "try_again_later"] as ReadonlyArray<string>,
    attemptsPerConnection: 2,
    /** A PSP call that has not answered by then is treated as "outcome unknown". */
    callTimeout: Duration.seconds(30),
    /** Unanswered attempts older than this are reconciled by the worker. */
    reconcileAfter: Duration.minutes(2),
    /** Manual-capture authorizations are released after 7 days, like Stripe's. */
    authorizationLifetime: Duration.days(7),
    /** A 3DS challenge nobody finished is canceled after a day. */
    actionLifetime: Duration.days(1),
    /** How often the PSP is asked about a 3DS challenge whose customer has not come back. */
    actionPollInterval: Duration.minutes(15)
  })
}) {}

/** The public address of this service, for the URLs handed to PSPs and customers. */
export class PublicBaseUrl extends Context.Tag("core/PublicBaseUrl")<PublicBaseUrl, string>() {}
