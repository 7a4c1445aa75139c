import { refreshScrapeGauges } from "@orchestrator/sql"
import { Layer, Option } from "effect"
import cluster from "node:cluster"
import type { Settings } from "../settings/Settings.js"
import { MetricsServerLive } from "./MetricsServer.js"

/**
 * This process's `GET /metrics`, when `ORCHESTRATOR_METRICS_PORT` is set. Each process serves its own
 * figures: the HTTP processes of `ORCHESTRATOR_HTTP_PROCESSES` take the ports after it, one each
 * (`HTTP_PROCESS_SLOT`, kept when a process is replaced), since a port they shared would answer
 * each scrape from whichever process the primary picked.
 */
export const processMetrics = (settings: Settings) =>
  Option.match(settings.metrics, {
    onNone: () => Layer.empty,
    onSome: ({ host, port }) => {
      const slot = cluster.isWorker ? Number(process.env.HTTP_PROCESS_SLOT ?? 0) : 0
      return Layer.discard(MetricsServerLive({ host, port: port === 0 ? 0 : port + slot, refresh: refreshScrapeGauges, traced: settings.traceProbes }))
    }
  })
