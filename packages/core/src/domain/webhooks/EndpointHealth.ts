import { Context, DateTime, Duration } from "effect"

/**
 * How deliveries share the workers, and when an endpoint is let rest or given up on, as data. Each
 * endpoint is a lane of the deliveries' queue (see `FairShare`): a receiver that hangs holds at most
 * `perEndpoint` workers, an organization at most `perTenant` of them, whatever it has waiting.
 */
export class WebhookDeliveryPolicy extends Context.Reference<WebhookDeliveryPolicy>()("core/WebhookDeliveryPolicy", {
  defaultValue: () => ({
    /** Attempts in flight at once in one worker process. */
    workers: 64,
    /**
     * Attempts in flight at once to one endpoint, every process together: what a new endpoint, one
     * that failed or one that answers slowly gets.
     */
    perEndpoint: 2,
    /** What an endpoint that answers 2xx within `quickAnswer` earns, doubling with each such answer. */
    maxPerEndpoint: 32,
    quickAnswer: Duration.seconds(1),
    /** Attempts in flight at once for one organization's mode, every endpoint and process together. */
    perTenant: 32,
    /** Failed attempts in a row, the last of them unanswered, refused or a 5xx/429, that open the endpoint's circuit. */
    circuitThreshold: 3,
    /** How long the circuit first stays open; it doubles with each failure after, up to `maxCoolDown`. */
    coolDown: Duration.seconds(30),
    maxCoolDown: Duration.minutes(30),
    /**
     * An endpoint every attempt to which failed for this long is disabled: as long as a delivery's
     * retries last (the seed's schedule, about 72 hours).
     */
    disableAfter: Duration.hours(72)
  })
}) {}

export type DeliveryPolicyValues = Context.Tag.Service<typeof WebhookDeliveryPolicy>

/** The deliveries' queue's share (see `FairShare`): its lanes are endpoints. */
export const deliveryShare = (policy: DeliveryPolicyValues) => ({ perTenant: policy.perTenant, perLane: policy.perEndpoint })

/**
 * What the service knows of an endpoint's receiver: failed attempts in a row and since when, its
 * circuit, and the attempts it has earned in flight. While the circuit is open (`circuitOpenUntil`
 * ahead) nothing is claimed for it, so its deliveries wait without holding a worker; once that time
 * has passed one attempt at a time goes out (a trial), and the first success closes it.
 */
export interface EndpointHealth {
  readonly failureCount: number
  readonly failingSince: DateTime.Utc | null
  readonly circuitOpenUntil: DateTime.Utc | null
  /** Attempts in flight it has earned by answering quickly; `null`: `perEndpoint`. */
  readonly concurrency: number | null
}

export const HEALTHY: EndpointHealth = { failureCount: 0, failingSince: null, circuitOpenUntil: null, concurrency: null }

const sameTime = (a: DateTime.Utc | null, b: DateTime.Utc | null) => a === null || b === null ? a === b : a.epochMillis === b.epochMillis

/** Whether `a` and `b` say the same: a health unchanged by an attempt needs no write. */
export const sameHealth = (a: EndpointHealth, b: EndpointHealth) =>
  a.failureCount === b.failureCount && a.concurrency === b.concurrency && sameTime(a.failingSince, b.failingSince) &&
  sameTime(a.circuitOpenUntil, b.circuitOpenUntil)

/** What the receiver did, as the webhook sender reports it (`WebhookResponse`). */
type ReceiverAnswer = { readonly _tag: "Answered"; readonly status: number } | { readonly _tag: "Unreachable" }

/**
 * How an attempt went, for the endpoint's health: `succeeded` is a 2xx within `quickAnswer`, `slow`
 * a later one; `strained` is what holds a worker or says the receiver is overwhelmed (no answer
 * within the deadline, unreachable, a 5xx or a 429); another failure (a redirect, a 4xx) is
 * answered at once and counts only toward disabling.
 */
export type AttemptVerdict = "succeeded" | "slow" | "strained" | "failed"

export const verdictOf = (response: ReceiverAnswer | undefined, durationMillis: number, policy: DeliveryPolicyValues): AttemptVerdict => {
  if (response === undefined || response._tag === "Unreachable") return "strained"
  if (response.status >= 200 && response.status < 300) return durationMillis < Duration.toMillis(policy.quickAnswer) ? "succeeded" : "slow"
  return response.status >= 500 || response.status === 429 ? "strained" : "failed"
}

/** How long the circuit stays open after the `failures`-th failure in a row. */
export const coolDownAfter = (failures: number, policy: DeliveryPolicyValues): Duration.Duration => {
  const doublings = Math.max(0, failures - policy.circuitThreshold)
  const millis = Duration.toMillis(policy.coolDown) * 2 ** Math.min(doublings, 20)
  return Duration.millis(Math.min(millis, Duration.toMillis(policy.maxCoolDown)))
}

/**
 * The endpoint's health after an attempt that went `verdict` at `now`, and whether it must now be
 * disabled: a success clears its failures and its circuit, and a quick one doubles what it may have
 * in flight (up to `maxPerEndpoint`), a slow one takes it back to `perEndpoint`; a failure takes it
 * back too, counts, opens the circuit when it is strained and the threshold is reached (and reopens
 * it, longer, when a trial fails), and disables the endpoint once every attempt has failed for
 * `disableAfter`.
 */
export const nextHealth = (
  health: EndpointHealth,
  verdict: AttemptVerdict,
  now: DateTime.Utc,
  policy: DeliveryPolicyValues
): { readonly health: EndpointHealth; readonly disable: boolean } => {
  if (verdict === "succeeded") {
    const earned = Math.min((health.concurrency ?? policy.perEndpoint) * 2, policy.maxPerEndpoint)
    return { health: { ...HEALTHY, concurrency: earned <= policy.perEndpoint ? null : earned }, disable: false }
  }
  if (verdict === "slow") return { health: HEALTHY, disable: false }
  const failureCount = health.failureCount + 1
  const failingSince = health.failingSince ?? now
  const opens = health.circuitOpenUntil !== null || (verdict === "strained" && failureCount >= policy.circuitThreshold)
  const circuitOpenUntil = opens ? DateTime.addDuration(now, coolDownAfter(failureCount, policy)) : null
  const disable = !DateTime.lessThan(now, DateTime.addDuration(failingSince, policy.disableAfter))
  return { health: { failureCount, failingSince, circuitOpenUntil, concurrency: null }, disable }
}

/** How many attempts to an endpoint may be in flight at `now`: none while its circuit is open, one trial after. */
export const endpointCap = (
  endpoint: { readonly status: string; readonly health: EndpointHealth },
  now: DateTime.Utc,
  perEndpoint: number
): number => {
  // A disabled endpoint's deliveries are attempted without sending anything (and exhausted).
  if (endpoint.status !== "active") return perEndpoint
  if (endpoint.health.circuitOpenUntil === null) return endpoint.health.concurrency ?? perEndpoint
  return DateTime.lessThan(now, endpoint.health.circuitOpenUntil) ? 0 : 1
}
