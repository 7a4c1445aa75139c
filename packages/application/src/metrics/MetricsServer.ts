import { Context, Effect, Layer, Metric, Runtime } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { startProcessSeries } from "./ProcessSeries.js"
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from "./PrometheusText.js"

export interface MetricsServerOptions {
  readonly port: number
  readonly host: string
  /** Refreshes the gauges read at scrape time (the webhook backlog, circuits) before each render. */
  readonly refresh: Effect.Effect<void, unknown>
  /** Whether a scrape (and the SQL its refresh reads) is traced: not unless asked (`ORCHESTRATOR_TRACE_PROBES`). */
  readonly traced?: boolean
}

/** Where the metrics server listens (its port, when asked for port 0). */
export class MetricsServer extends Context.Tag("http/MetricsServer")<MetricsServer, { readonly port: number; readonly url: string }>() {}

/**
 * `GET /metrics` of this process on a port of its own, apart from the API: nothing a merchant can
 * reach, no key of theirs involved, and the worker (which has no HTTP server) exposes it the same way.
 * The service's metrics come first, then the process's (CPU, memory, heap, GC, event-loop lag).
 * A refresh that fails (the database away) is logged and the rest is served: counters still count.
 */
export const MetricsServerLive = (options: MetricsServerOptions) =>
  Layer.scoped(
    MetricsServer,
    Effect.gen(function*() {
      const runtime = yield* Effect.runtime<never>()
      const processSeries = yield* Effect.acquireRelease(Effect.sync(startProcessSeries), (series) => Effect.sync(series.stop))
      const scrape = options.refresh.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("Metrics: the gauges read from the database could not be refreshed", cause)),
        Effect.zipRight(Metric.snapshot),
        Effect.map(renderPrometheus),
        Effect.zipWith(Effect.promise(processSeries.render), (service, process) => service + process),
        Effect.withTracerEnabled(options.traced === true)
      )
      const server = http.createServer((request, response) => {
        const path = (request.url ?? "").split("?")[0]
        if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
          response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Only GET /metrics is served here.\n")
          return
        }
        Runtime.runPromise(runtime)(scrape).then(
          (text) => response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE }).end(request.method === "HEAD" ? undefined : text),
          () => response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("The metrics could not be rendered.\n")
        )
      })
      const port = yield* Effect.acquireRelease(
        Effect.async<number, Error>((resume) => {
          server.once("error", (error) => resume(Effect.fail(error)))
          server.listen(options.port, options.host, () => resume(Effect.succeed((server.address() as AddressInfo).port)))
        }),
        () =>
          Effect.async<void>((done) => {
            server.closeAllConnections()
            server.close(() => done(Effect.void))
          })
      )
      const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}/metrics`
      yield* Effect.logInfo(`Metrics: ${url}`)
      return { port, url }
    })
  )
