import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
import { familyText } from "./PrometheusText.js"

/**
 * The process's own figures, under the names `prom-client`'s default metrics give every Node service
 * (so existing dashboards and alerts read them): CPU seconds, resident memory, the V8 heap, garbage
 * collection and event-loop lag. Read from Node itself when Prometheus scrapes; the event-loop delay
 * and GC observers run only while the metrics port is open.
 */

/** prom-client's buckets for GC pauses, in seconds. */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5]

const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb"
}

interface GcTally {
  readonly buckets: Array<number>
  sum: number
  count: number
}

const seconds = (nanoseconds: number) => nanoseconds / 1e9

/** How long a callback queued now waits for the event loop, in seconds: prom-client's `nodejs_eventloop_lag_seconds`. */
const currentLag = () =>
  new Promise<number>((resolve) => {
    const start = process.hrtime.bigint()
    setImmediate(() => resolve(Number(process.hrtime.bigint() - start) / 1e9))
  })

export interface ProcessSeries {
  /** The text of every process series, measured now; the event-loop delay statistics cover the time since the last scrape. */
  readonly render: () => Promise<string>
  readonly stop: () => void
}

export const startProcessSeries = (): ProcessSeries => {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const gc = new Map<string, GcTally>()
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind ?? -1] ?? "unknown"
      const tally = gc.get(kind) ?? { buckets: GC_BUCKETS.map(() => 0), sum: 0, count: 0 }
      const pause = entry.duration / 1000
      GC_BUCKETS.forEach((bound, index) => {
        if (pause <= bound) tally.buckets[index]!++
      })
      tally.sum += pause
      tally.count++
      gc.set(kind, tally)
    }
  })
  observer.observe({ entryTypes: ["gc"] })
  const startTime = Math.round((Date.now() - process.uptime() * 1000) / 1000)
  const [major, minor, patch] = process.versions.node.split(".")

  const render = async () => {
    const lag = await currentLag()
    const cpu = process.cpuUsage()
    const memory = process.memoryUsage()
    // Over the time since the last scrape: a spike is seen once, then the figures start again.
    const loop = delay.count > 0
      ? {
        min: delay.min,
        max: delay.max,
        mean: delay.mean,
        stddev: delay.stddev,
        p50: delay.percentile(50),
        p90: delay.percentile(90),
        p99: delay.percentile(99)
      }
      : undefined
    delay.reset()
    const families = [
      familyText("process_cpu_user_seconds_total", "counter", "User CPU time spent, in seconds.", [[[], cpu.user / 1e6]]),
      familyText("process_cpu_system_seconds_total", "counter", "System CPU time spent, in seconds.", [[[], cpu.system / 1e6]]),
      familyText("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", [[[], (cpu.user + cpu.system) / 1e6]]),
      familyText("process_start_time_seconds", "gauge", "When the process started (Unix seconds).", [[[], startTime]]),
      familyText("process_resident_memory_bytes", "gauge", "Resident memory size, in bytes.", [[[], memory.rss]]),
      familyText("nodejs_heap_size_total_bytes", "gauge", "V8 heap size, in bytes.", [[[], memory.heapTotal]]),
      familyText("nodejs_heap_size_used_bytes", "gauge", "V8 heap used, in bytes.", [[[], memory.heapUsed]]),
      familyText("nodejs_external_memory_bytes", "gauge", "Memory of C++ objects bound to JavaScript objects (buffers among them), in bytes.", [[
        [],
        memory.external
      ]]),
      familyText("nodejs_eventloop_lag_seconds", "gauge", "How long a callback queued at the scrape waited for the event loop, in seconds.", [[[], lag]]),
      ...(loop === undefined ? [] : [
        familyText("nodejs_eventloop_lag_min_seconds", "gauge", "The event loop's shortest delay since the last scrape, in seconds.", [[
          [],
          seconds(loop.min)
        ]]),
        familyText("nodejs_eventloop_lag_max_seconds", "gauge", "The event loop's longest delay since the last scrape, in seconds.", [[[], seconds(loop.max)]]),
        familyText("nodejs_eventloop_lag_mean_seconds", "gauge", "The event loop's mean delay since the last scrape, in seconds.", [[[], seconds(loop.mean)]]),
        familyText("nodejs_eventloop_lag_stddev_seconds", "gauge", "The standard deviation of the event loop's delay since the last scrape, in seconds.", [[
          [],
          seconds(loop.stddev)
        ]]),
        familyText("nodejs_eventloop_lag_p50_seconds", "gauge", "The event loop's median delay since the last scrape, in seconds.", [[[], seconds(loop.p50)]]),
        familyText("nodejs_eventloop_lag_p90_seconds", "gauge", "The event loop's 90th percentile delay since the last scrape, in seconds.", [[
          [],
          seconds(loop.p90)
        ]]),
        familyText("nodejs_eventloop_lag_p99_seconds", "gauge", "The event loop's 99th percentile delay since the last scrape, in seconds.", [[
          [],
          seconds(loop.p99)
        ]])
      ]),
      familyText(
        "nodejs_gc_duration_seconds",
        "histogram",
        "Garbage collection pauses by kind (major, minor, incremental, weakcb), in seconds.",
        [...gc].sort(([a], [b]) => a < b ? -1 : 1).flatMap(([kind, tally]) => [
          ...GC_BUCKETS.map((bound, index) => [[["kind", kind], ["le", String(bound)]], tally.buckets[index]!, "_bucket"] as const),
          [[["kind", kind], ["le", "+Inf"]], tally.count, "_bucket"] as const,
          [[["kind", kind]], tally.sum, "_sum"] as const,
          [[["kind", kind]], tally.count, "_count"] as const
        ])
      ),
      familyText("nodejs_version_info", "gauge", "The Node.js version running the process.", [[[["version", process.version], ["major", major ?? ""], [
        "minor",
        minor ?? ""
      ], ["patch", patch ?? ""]], 1]])
    ]
    return families.join("")
  }

  return {
    render,
    stop: () => {
      delay.disable()
      observer.disconnect()
    }
  }
}
