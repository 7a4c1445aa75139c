import { Clock, Effect, Metric, MetricBoundaries, MetricLabel } from "effect"

/**
 * The service's own metrics, recorded where things happen and rendered for Prometheus by the shell
 * (`GET /metrics`). Every label is bounded: connection TYPES (`stripe`, `sandbox`), never a connection's
 * name or id (merchants choose those); our failure codes; job and route names. Recording is a map
 * lookup and an addition, cheap on the hot path.
 */

/** Seconds, from 5 ms to 30 s: HTTP answers and PSP calls. */
const latencyBoundaries = MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30])

export const paymentsTotal = Metric.counter("orchestrator_payments_total", {
  description: "Payments that reached a final status (succeeded, failed, canceled), by connection type, outcome and failure code.",
  incremental: true
})

export const pspCallDuration = Metric.histogram(
  "orchestrator_psp_call_duration_seconds",
  latencyBoundaries,
  "Calls to PSPs by connection type, operation and outcome (answered, unavailable, no_answer), in seconds."
)

export const webhookDeliveriesTotal = Metric.counter("orchestrator_webhook_deliveries_total", {
  description: "Webhook delivery attempts by outcome (succeeded, failed, exhausted).",
  incremental: true
})

export const idempotencyTotal = Metric.counter("orchestrator_idempotency_requests_total", {
  description: "Requests with an Idempotency-Key that did not run: replayed (the stored answer), in_use (409), reused (422).",
  incremental: true
})

export const rateLimitedTotal = Metric.counter("orchestrator_rate_limited_requests_total", {
  description: "Requests refused with 429 by the per-key rate limit, by mode (live, test).",
  incremental: true
})

export const providerWebhooksThrottledTotal = Metric.counter("orchestrator_provider_webhooks_throttled_total", {
  description: "PSP webhooks refused with 429 by their connection's intake limit, before any call to the PSP, by connection type.",
  incremental: true
})

export const jobPassesTotal = Metric.counter("orchestrator_job_passes_total", {
  description: "Passes of each background job, by outcome (ok, failed).",
  incremental: true
})

export const jobItemsTotal = Metric.counter("orchestrator_job_items_total", {
  description: "Items a background job handled (deliveries sent, payments reconciled, …).",
  incremental: true
})

export const jobLastPassTimestamp = Metric.gauge("orchestrator_job_last_pass_timestamp_seconds", {
  description: "When each background job last finished a pass (Unix seconds); time() minus it is the job's lag."
})

export const httpRequestsTotal = Metric.counter("orchestrator_http_requests_total", {
  description: "HTTP requests by route template, method and status.",
  incremental: true
})

export const httpRequestDuration = Metric.histogram(
  "orchestrator_http_request_duration_seconds",
  latencyBoundaries,
  "HTTP request latency by route template and method, in seconds."
)

/**
 * The metric of `base` under `labels`, made once per combination: a new one per call would hash its
 * key in the registry every time (about 15 µs), where a map lookup costs well under one. Labels are
 * bounded, and past `MAX_SERIES` combinations nothing more is kept (the metric is then made per call).
 */
const MAX_SERIES = 10_000
const seriesOf = new WeakMap<object, Map<string, unknown>>()

const labelled = <M extends Metric.Metric.Counter<number> | Metric.Metric.Gauge<number> | Metric.Metric.Histogram<number>>(
  base: M,
  labels: Readonly<Record<string, string>>
): M => {
  let series = seriesOf.get(base)
  if (series === undefined) seriesOf.set(base, series = new Map())
  let key = ""
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0001`
  const known = series.get(key)
  if (known !== undefined) return known as M
  const made = Metric.taggedWithLabels(
    base as Metric.Metric<unknown, number, unknown>,
    Object.entries(labels).map(([name, value]) => MetricLabel.make(name, value))
  ) as M
  if (series.size < MAX_SERIES) series.set(key, made)
  return made
}

/** Increments `counter` once under `labels`. */
export const countWith = (counter: Metric.Metric.Counter<number>, labels: Readonly<Record<string, string>>) => Effect.sync(() => countNow(counter, labels))

/** Records one observation of `seconds` under `labels`. */
export const observeWith = (histogram: Metric.Metric.Histogram<number>, labels: Readonly<Record<string, string>>, seconds: number) =>
  Effect.sync(() => observeNow(histogram, labels, seconds))

/** `countWith` for code already inside one `Effect.sync`: the fiber's own metric labels are not added. */
export const countNow = (counter: Metric.Metric.Counter<number>, labels: Readonly<Record<string, string>>) => labelled(counter, labels).unsafeUpdate(1, [])

/** `observeWith` for code already inside one `Effect.sync`. */
export const observeNow = (histogram: Metric.Metric.Histogram<number>, labels: Readonly<Record<string, string>>, seconds: number) =>
  labelled(histogram, labels).unsafeUpdate(seconds, [])

/** The last pass of `job` ended now. */
export const markJobPass = (job: string, outcome: "ok" | "failed", items: number) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    yield* countWith(jobPassesTotal, { job, outcome })
    if (items > 0) yield* Metric.incrementBy(labelled(jobItemsTotal, { job }), items)
    if (outcome === "ok") yield* Metric.set(labelled(jobLastPassTimestamp, { job }), now / 1000)
  })

/** Read from the database at each scrape (see the shell's metrics server): the state, not events. */
export const webhookPendingDeliveries = Metric.gauge("orchestrator_webhook_pending_deliveries", {
  description: "Webhook deliveries waiting for a (next) attempt, every merchant together."
})

export const webhookOldestPendingAge = Metric.gauge("orchestrator_webhook_oldest_pending_age_seconds", {
  description: "Age of the oldest pending webhook delivery, in seconds (0 when none waits)."
})

export const disputesOpen = Metric.gauge("orchestrator_disputes_open", {
  description: "Disputes open (needing a response or under review), every merchant together, by connection type (`provider`) and mode."
})

export const disputesNearestDue = Metric.gauge("orchestrator_disputes_nearest_due_seconds", {
  description: "Seconds until the nearest evidence deadline of a dispute that needs a response, by mode (negative once passed; +Inf when none)."
})

export const providerConnections = Metric.gauge("orchestrator_provider_connections", {
  description: "Provider connections by connection type, mode and status; status=\"error\" counts those whose circuit is open."
})
