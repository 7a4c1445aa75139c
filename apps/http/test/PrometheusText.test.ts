import { renderPrometheus, startProcessSeries } from "@orchestrator/application"
import { Effect, Metric, MetricBoundaries } from "effect"
import { describe, expect, it } from "vitest"
import { recordRequest } from "../src/metrics/RequestMetrics.js"
import { methodLabel, routeTemplateOf, routeTemplates, UNMATCHED } from "../src/metrics/RouteTemplates.js"

/** A metric of the test's own, so the global registry's other metrics never matter. */
const unique = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 8)}`

const render = Effect.map(Metric.snapshot, renderPrometheus)

const linesOf = (text: string, name: string) => text.split("\n").filter((line) => line.startsWith(name))

describe("Prometheus text rendering", () => {
  it("renders a labelled counter with one HELP and TYPE, its values escaped", async () => {
    const name = unique("test_requests_total")
    const counter = Metric.counter(name, { description: "Requests.\nTwo lines.", incremental: true })
    const text = await Effect.runPromise(Effect.gen(function*() {
      yield* Metric.incrementBy(Metric.tagged(counter, "route", "/v1/payments"), 3)
      yield* Metric.increment(Metric.tagged(counter, "route", "a \"quoted\" \\ path\nwith a newline"))
      return yield* render
    }))
    expect(text).toContain(`# HELP ${name} Requests.\\nTwo lines.\n# TYPE ${name} counter\n`)
    expect(text.split("\n").filter((line) => line === `# TYPE ${name} counter`)).toHaveLength(1)
    expect(linesOf(text, name)).toEqual([
      `${name}{route="/v1/payments"} 3`,
      `${name}{route="a \\"quoted\\" \\\\ path\\nwith a newline"} 1`
    ])
  })

  it("renders a histogram as cumulative buckets ending with +Inf, then _sum and _count", async () => {
    const name = unique("test_duration_seconds")
    const histogram = Metric.histogram(name, MetricBoundaries.fromIterable([0.1, 1]))
    const text = await Effect.runPromise(Effect.gen(function*() {
      const tagged = Metric.tagged(histogram, "operation", "authorize")
      for (const seconds of [0.05, 0.5, 0.7, 3]) yield* Metric.update(tagged, seconds)
      return yield* render
    }))
    expect(text).toContain(`# TYPE ${name} histogram`)
    expect(linesOf(text, name)).toEqual([
      `${name}_bucket{operation="authorize",le="0.1"} 1`,
      `${name}_bucket{operation="authorize",le="1"} 3`,
      `${name}_bucket{operation="authorize",le="+Inf"} 4`,
      `${name}_sum{operation="authorize"} 4.25`,
      `${name}_count{operation="authorize"} 4`
    ])
  })

  it("renders a counter that may go down as a gauge: rate() would read its drops as resets", async () => {
    const name = unique("test_active")
    const text = await Effect.runPromise(Effect.zipRight(Metric.incrementBy(Metric.counter(name), 2), render))
    expect(text).toContain(`# TYPE ${name} gauge\n${name} 2\n`)
  })

  it("renders a gauge, and makes a name Prometheus cannot take valid", async () => {
    const name = unique("test.pending-deliveries")
    const text = await Effect.runPromise(Effect.zipRight(Metric.set(Metric.gauge(name), 7), render))
    expect(text).toContain(`# TYPE ${name.replace(/[.-]/g, "_")} gauge\n${name.replace(/[.-]/g, "_")} 7\n`)
  })
})

describe("what the scrape leaves out, and the process's own series", () => {
  it("leaves out Effect's runtime series: no fiber counters without HELP, no milliseconds with a time_unit label", async () => {
    // This test's runtime counts fibers (Effect's default; the service turns it off): they are there to leave out.
    const text = await Effect.runPromise(Effect.zipRight(Effect.forkDaemon(Effect.void), render))
    expect(text).not.toMatch(/effect_fiber|time_unit/)
  })

  it("renders CPU, memory, heap, GC and event-loop lag under prom-client's names, each with HELP and TYPE", async () => {
    const series = startProcessSeries()
    try {
      await new Promise((resolve) => setTimeout(resolve, 50))
      const text = await series.render()
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1])
      expect(value("process_cpu_seconds_total")).toBeGreaterThan(0)
      expect(value("process_cpu_seconds_total")).toBeCloseTo(value("process_cpu_user_seconds_total") + value("process_cpu_system_seconds_total"), 5)
      expect(value("process_resident_memory_bytes")).toBeGreaterThan(value("nodejs_heap_size_used_bytes"))
      expect(value("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0)
      expect(value("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(value("nodejs_eventloop_lag_p50_seconds"))
      expect(Math.abs(value("process_start_time_seconds") - (Date.now() / 1000 - process.uptime()))).toBeLessThan(2)
      expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram")
      expect(text).toMatch(/^nodejs_version_info\{version="v\d+\.\d+\.\d+",major="\d+",minor="\d+",patch="\d+"\} 1$/m)
      for (const [, name] of text.matchAll(/^# TYPE (\S+) counter$/gm)) expect(name).toMatch(/_total$/)
      for (const [, name] of text.matchAll(/^# TYPE (\S+) /gm)) expect(text).toContain(`# HELP ${name} `)
    } finally {
      series.stop()
    }
  })
})

describe("route templates (the HTTP metrics' route label)", () => {
  it("names a path by the API's template, never by the ids in it", () => {
    expect(routeTemplateOf("/v1/payments")).toBe("/v1/payments")
    expect(routeTemplateOf("/v1/payments/pay_01J9ZQ3")).toBe("/v1/payments/:id")
    expect(routeTemplateOf("/v1/payments/pay_01J9ZQ3/refund")).toBe("/v1/payments/:id/refund")
    expect(routeTemplateOf("/healthz")).toBe("/healthz")
    expect(routeTemplateOf("/dashboard/payments/pay_1")).toBe("/dashboard/*")
    expect(routeTemplateOf("/sandbox/3ds/ch_123/complete")).toBe("/sandbox/*")
    expect(routeTemplateOf("/wp-admin/install.php")).toBe(UNMATCHED)
    expect(routeTemplateOf("/v1/payments/pay_1/nonsense/deeper")).toBe(UNMATCHED)
  })

  it("prefers a literal segment over a parameter", () => {
    const templates = routeTemplates(["/v1/things/:id", "/v1/things/search"])
    expect(routeTemplateOf("/v1/things/search", templates)).toBe("/v1/things/search")
    expect(routeTemplateOf("/v1/things/th_1", templates)).toBe("/v1/things/:id")
    expect(routeTemplateOf("/v1/things/", templates)).toBe(UNMATCHED)
  })

  it("keeps methods to the standard ones", () => {
    expect(methodLabel("POST")).toBe("POST")
    expect(methodLabel("BREW")).toBe("other")
  })

  it("keeps one series per route however many ids and odd paths are requested", async () => {
    const text = await Effect.runPromise(Effect.gen(function*() {
      for (let i = 0; i < 200; i++) {
        yield* recordRequest("GET", `/v1/refunds/ref_${i}`, 404, 3)
        yield* recordRequest("GET", `/probe-${i}/../etc/passwd`, 404, 1)
      }
      return yield* render
    }))
    const series = linesOf(text, "orchestrator_http_requests_total{")
    expect(series.filter((line) => line.includes("ref_") || line.includes("probe-"))).toEqual([])
    expect(series).toContain("orchestrator_http_requests_total{route=\"/v1/refunds/:id\",method=\"GET\",status=\"404\"} 200")
    expect(series).toContain("orchestrator_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 200")
    expect(linesOf(text, "orchestrator_http_request_duration_seconds_count")).toContain(
      "orchestrator_http_request_duration_seconds_count{route=\"/v1/refunds/:id\",method=\"GET\"} 200"
    )
  })
})
