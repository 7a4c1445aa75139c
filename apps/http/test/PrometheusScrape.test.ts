import { expect, layer } from "@effect/vitest"
import { MetricsServer, MetricsServerLive } from "@orchestrator/application"
import { refreshScrapeGauges } from "@orchestrator/sql"
import { freePort, testDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { dashboardQueries } from "./support/GrafanaDashboard.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

/** Debian's Prometheus (`apt-get install prometheus`; `.ci/run` installs it when missing). */
const PROMETHEUS = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus"

/** Asks `check` again every 200 ms until it answers, or fails with what it last saw once `seconds` have passed. */
const poll = <A>(what: string, seconds: number, check: () => Promise<A | undefined>) =>
  Effect.promise(async () => {
    const deadline = Date.now() + seconds * 1000
    let last: unknown = undefined
    while (Date.now() < deadline) {
      try {
        const found = await check()
        if (found !== undefined) return found
      } catch (error) {
        last = error
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`${what}: not within ${seconds} s (last: ${String(last)})`)
  })

/** A real Prometheus on a free port, scraping `target` every second, for as long as the scope lives. */
const startPrometheus = (target: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-prometheus-"))
      fs.writeFileSync(
        path.join(dir, "prometheus.yml"),
        [
          "global:",
          "  scrape_interval: 1s",
          "  evaluation_interval: 1s",
          "scrape_configs:",
          "  - job_name: orchestrator",
          "    static_configs:",
          `      - targets: ["${target}"]`,
          ""
        ].join("\n")
      )
      const child = spawn(PROMETHEUS, [
        `--config.file=${path.join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${path.join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn"
      ], { stdio: ["ignore", "ignore", "pipe"] })
      let stderr = ""
      child.stderr!.on("data", (chunk) => (stderr += chunk))
      const url = `http://127.0.0.1:${port}`
      yield* poll("Prometheus ready", 20, async () => {
        if (child.exitCode !== null) throw new Error(`Prometheus exited: ${stderr}`)
        return (await fetch(`${url}/-/ready`)).ok ? true : undefined
      })
      return { url, child, dir }
    }),
    ({ child, dir }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve())
          child.kill("SIGTERM")
        })
      ).pipe(Effect.ensuring(Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))))
  )

/** One instant query through Prometheus' HTTP API: the value of each series, by its labels. */
const query = async (prometheus: string, promql: string) => {
  const response = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(promql)}`)
  const body = await response.json() as {
    status: string
    data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> }
  }
  if (body.status !== "success") throw new Error(JSON.stringify(body))
  return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }))
}

/** The single value of an aggregate query, once Prometheus has it. */
const valueOf = async (prometheus: string, promql: string) => (await query(prometheus, promql))[0]?.value

// One database keeps the run short: PostgreSQL when DATABASE_URL is set (as in CI, where the pool's
// use is reported too), else PGlite.
const database = testDatabases().at(-1)!

// Port 0: the test reads the port the metrics server took. Its gauges come from the service's own database.
const withMetrics = MetricsServerLive({ host: "127.0.0.1", port: 0, refresh: refreshScrapeGauges }).pipe(
  Layer.provideMerge(serverLayer(database.layer))
)

layer(withMetrics, { excludeTestServices: true, timeout: "60 seconds" })("Prometheus scrapes GET /metrics", (it) => {
  it.scoped("counts the payments made, by connection type and outcome, and sees the oldest pending delivery age", () =>
    Effect.gen(function*() {
      const metrics = yield* MetricsServer
      const { baseUrl, secret } = yield* merchant()
      const pay = (token: string) =>
        raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(paymentWith(token)) })

      // A receiver that is down: its address refuses connections from the first delivery on.
      const receiver = yield* startReceiver
      yield* receiver.stop
      const endpoint = yield* raw(`${baseUrl}/v1/webhooks/endpoints`, {
        method: "POST",
        headers: json(secret),
        body: JSON.stringify({ url: receiver.url, enabled_events: ["payment.succeeded"] })
      })
      expect(endpoint.status).toBe(201)

      const statuses = [
        ...(yield* Effect.forEach([1, 2, 3], () => pay("tok_visa"))),
        ...(yield* Effect.forEach([1, 2], () => pay("tok_chargeDeclined")))
      ].map((response) => response.status)
      expect(statuses).toEqual([201, 201, 201, 402, 402])
      // The same request again is a replay: no payment more.
      const key = newKey()
      const once = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body: JSON.stringify(paymentWith("tok_visa")) })
      const again = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body: JSON.stringify(paymentWith("tok_visa")) })
      expect([once.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"])
      // Each succeeded payment's event goes to the receiver, which is down: every delivery stays pending.
      yield* deliverWebhooks

      const prometheus = yield* startPrometheus(new URL(metrics.url).host)
      const made = 6
      yield* poll("sum(orchestrator_payments_total) equal to the payments made", 20, async () =>
        (await valueOf(prometheus.url, "sum(orchestrator_payments_total)")) === made ? true : undefined)
      const byOutcome = yield* Effect.promise(() =>
        query(prometheus.url, "sum by (provider, outcome, failure_code) (orchestrator_payments_total)")
      )
      const rows: Array<Record<string, string | number>> = byOutcome.map(({ metric, value }) => ({ ...metric, value }))
      expect(rows.sort((a, b) => String(a.outcome).localeCompare(String(b.outcome)))).toEqual([
        { provider: "sandbox", outcome: "failed", failure_code: "card_declined", value: 2 },
        { provider: "sandbox", outcome: "succeeded", value: 4 }
      ])
      const read = (promql: string) => Effect.promise(() => valueOf(prometheus.url, promql))
      expect(yield* read(`sum(orchestrator_psp_call_duration_seconds_count{provider="sandbox",operation="authorize"})`)).toBe(made)
      // Four payments answered 201, and the replay answers 201 again.
      expect(yield* read(`sum(orchestrator_http_requests_total{route="/v1/payments",method="POST",status="201"})`)).toBe(5)
      expect(yield* read(`sum(orchestrator_http_requests_total{route="/v1/payments",method="POST",status="402"})`)).toBe(2)
      expect(yield* read(`sum(orchestrator_idempotency_requests_total{outcome="replayed"})`)).toBe(1)
      expect(yield* read(`sum(orchestrator_webhook_deliveries_total{outcome="failed"})`)).toBe(4)
      expect(yield* read("orchestrator_webhook_pending_deliveries")).toBe(4)
      expect(yield* read(`sum(orchestrator_provider_connections{provider="sandbox",status="active"})`)).toBeGreaterThanOrEqual(2)

      if (database.name === "postgres") {
        // The pool's use, as PostgreSQL sees this process's connections.
        expect(yield* read("orchestrator_db_pool_max_connections")).toBe(10)
        expect(typeof (yield* read(`orchestrator_db_pool_connections{state="idle"}`))).toBe("number")
        expect(typeof (yield* read(`orchestrator_db_pool_connections{state="in_use"}`))).toBe("number")
      }

      // While the receiver stays down, the oldest pending delivery only gets older, scrape after scrape.
      const first = yield* poll("an oldest-pending age", 10, async () => {
        const age = await valueOf(prometheus.url, "orchestrator_webhook_oldest_pending_age_seconds")
        return age !== undefined && age > 0 ? age : undefined
      })
      yield* poll("the oldest-pending age rising", 15, async () => {
        const age = await valueOf(prometheus.url, "orchestrator_webhook_oldest_pending_age_seconds")
        return age !== undefined && age >= first + 1.5 ? age : undefined
      })

      // No label holds an id or what a client sent: every route Prometheus knows is a template.
      const routes = yield* Effect.promise(async () =>
        ((await (await fetch(`${prometheus.url}/api/v1/label/route/values`)).json()) as { data: Array<string> }).data
      )
      expect(routes).toContain("/v1/payments")
      expect(routes.filter((route) => /pay_|whe_|req_/.test(route))).toEqual([])

      // The dashboard's queries are PromQL Prometheus accepts, and its payment panels have data.
      const answers = yield* Effect.forEach(dashboardQueries(), (expr) =>
        Effect.promise(() => query(prometheus.url, expr.replaceAll("$__rate_interval", "1m")).then((result) => ({ expr, result }))))
      expect(
        answers.find(({ expr }) =>
          expr.startsWith("sum by (provider, outcome) (rate(orchestrator_payments_total")
        )?.result.length
      ).toBe(2)

      // The process's own figures, as prom-client names them for every Node service.
      expect(yield* read("process_resident_memory_bytes")).toBeGreaterThan(10_000_000)
      expect(yield* read("nodejs_heap_size_used_bytes")).toBeGreaterThan(0)
      expect(yield* read("process_cpu_seconds_total")).toBeGreaterThan(0)
      expect(typeof (yield* read("nodejs_eventloop_lag_seconds"))).toBe("number")
      expect(typeof (yield* read("nodejs_eventloop_lag_p99_seconds"))).toBe("number")
    }))

  it.effect("reads the disputes open by connection type and the nearest deadline at each scrape", () =>
    Effect.gen(function*() {
      const metrics = yield* MetricsServer
      const scrape = Effect.promise(() => fetch(metrics.url).then((response) => response.text()))
      const gauge = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1])
      const before = yield* scrape
      const open = `orchestrator_disputes_open{provider="sandbox",mode="test"}`
      const openBefore = Number.isNaN(gauge(before, open)) ? 0 : gauge(before, open)
      const { baseUrl, secret } = yield* merchant()
      const paid = yield* raw(`${baseUrl}/v1/payments`, {
        method: "POST",
        headers: json(secret, newKey()),
        body: JSON.stringify(paymentWith("tok_createDispute"))
      })
      expect(paid.status).toBe(201)
      yield* runJobs("sandbox-notifications", "apply-provider-events")
      const [dispute] = (yield* raw(`${baseUrl}/v1/disputes?payment_id=${paid.json.id}`, { headers: json(secret) })).json.data
      expect(dispute.status).toBe("needs_response")
      const after = yield* scrape
      expect(gauge(after, open)).toBe(openBefore + 1)
      // The nearest deadline is this dispute's or an earlier one's, never later.
      const due = gauge(after, `orchestrator_disputes_nearest_due_seconds{mode="test"}`)
      expect(due).toBeLessThanOrEqual((Date.parse(dispute.evidence_due_by) - Date.now()) / 1000 + 5)
      // Live mode has no dispute that needs a response: its nearest deadline is infinitely far.
      expect(after).toMatch(/^orchestrator_disputes_nearest_due_seconds\{mode="live"\} \+Inf$/m)
    }))

  it.effect("serves every series by Prometheus' conventions, each listed in the README's table", () =>
    Effect.gen(function*() {
      const metrics = yield* MetricsServer
      const text = yield* Effect.promise(() => fetch(metrics.url).then((response) => response.text()))
      const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name: name!, type: type! }))
      expect(families.length).toBeGreaterThan(20)
      for (const { name, type } of families) {
        expect(text, name).toContain(`# HELP ${name} `)
        // A counter's name ends in _total; nothing counts in milliseconds or carries its unit as a label.
        if (type === "counter") expect(name).toMatch(/_total$/)
        expect(name).not.toMatch(/^effect_|_milliseconds?$|_ms$/)
      }
      expect(text).not.toMatch(/time_unit=|effect_fiber/)
      // The README's table of what is measured names every series the service serves.
      const readme = fs.readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
      const listed = new Set([...readme.matchAll(/^\| `([a-z0-9_]+)`/gm)].map(([, name]) => name!))
      expect(families.map(({ name }) => name).filter((name) => !listed.has(name))).toEqual([])
    }))
})
