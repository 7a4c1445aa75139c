import { MetricKeyType, type MetricPair, MetricState, Option } from "effect"

/**
 * Effect's metric snapshot in Prometheus' text exposition format (version 0.0.4): one `# HELP` and
 * `# TYPE` per name, then a line per labelled series; histograms as cumulative `_bucket{le}` lines with
 * `_sum` and `_count`. Nothing here decides what is measured: whatever the registry holds is rendered.
 */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

type Labels = ReadonlyArray<readonly [string, string]>

const metricName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const labelName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const escapeLabelValue = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")

const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const formatValue = (value: number | bigint): string =>
  typeof value === "bigint"
    ? value.toString()
    : Number.isNaN(value)
    ? "NaN"
    : value === Number.POSITIVE_INFINITY
    ? "+Inf"
    : value === Number.NEGATIVE_INFINITY
    ? "-Inf"
    : String(value)

const series = (name: string, labels: Labels, value: number | bigint) =>
  `${name}${labels.length === 0 ? "" : `{${labels.map(([key, text]) => `${labelName(key)}="${escapeLabelValue(text)}"`).join(",")}}`} ${formatValue(value)}`

/** A counter that may go down (Effect's `effect_fiber_active`, not `incremental`) is a gauge to Prometheus. */
const typeOf = (pair: MetricPair.MetricPair.Untyped): string => {
  const state = pair.metricState
  return MetricState.isCounterState(state)
    ? MetricKeyType.isCounterKey(pair.metricKey.keyType) && !pair.metricKey.keyType.incremental ? "gauge" : "counter"
    : MetricState.isGaugeState(state)
    ? "gauge"
    : MetricState.isHistogramState(state)
    ? "histogram"
    : MetricState.isSummaryState(state)
    ? "summary"
    : "counter"
}

/** The lines of one labelled series of a metric. */
const linesOf = (name: string, labels: Labels, state: MetricState.MetricState.Untyped): Array<string> => {
  if (MetricState.isCounterState(state)) return [series(name, labels, state.count)]
  if (MetricState.isGaugeState(state)) return [series(name, labels, state.value)]
  if (MetricState.isHistogramState(state)) {
    // Effect's buckets are cumulative already and end with +Inf.
    const buckets = state.buckets.map(([bound, count]) => series(`${name}_bucket`, [...labels, ["le", formatValue(bound)]], count))
    if (!state.buckets.some(([bound]) => bound === Number.POSITIVE_INFINITY)) {
      buckets.push(series(`${name}_bucket`, [...labels, ["le", "+Inf"]], state.count))
    }
    return [...buckets, series(`${name}_sum`, labels, state.sum), series(`${name}_count`, labels, state.count)]
  }
  if (MetricState.isSummaryState(state)) {
    return [
      ...state.quantiles.flatMap(([quantile, value]) => Option.isSome(value) ? [series(name, [...labels, ["quantile", String(quantile)]], value.value)] : []),
      series(`${name}_sum`, labels, state.sum),
      series(`${name}_count`, labels, state.count)
    ]
  }
  if (MetricState.isFrequencyState(state)) {
    return [...state.occurrences].map(([key, count]) => series(name, [...labels, ["key", key]], count))
  }
  return []
}

/**
 * Effect's own runtime series (`effect_fiber_started`, `effect_fiber_lifetimes` in milliseconds with a
 * `time_unit` label, …) are left out: they have no HELP, break Prometheus' naming conventions, and
 * the service turns them off anyway (they cost every fiber a few metric updates). The process
 * series (`ProcessSeries.ts`) say how the process is doing.
 */
const isEffectRuntimeSeries = (name: string) => name.startsWith("effect_")

/** Renders a snapshot (`Metric.snapshot`), names in order, so two scrapes of the same state read alike. */
export const renderPrometheus = (snapshot: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const byName = new Map<string, { type: string; help: string | undefined; series: Array<{ key: string; lines: Array<string> }> }>()
  for (const pair of snapshot) {
    if (isEffectRuntimeSeries(pair.metricKey.name)) continue
    const name = metricName(pair.metricKey.name)
    const labels: Labels = pair.metricKey.tags.map((tag) => [tag.key, tag.value] as const)
    const entry = byName.get(name) ?? { type: typeOf(pair), help: Option.getOrUndefined(pair.metricKey.description), series: [] }
    entry.series.push({ key: series(name, labels, 0), lines: linesOf(name, labels, pair.metricState) })
    byName.set(name, entry)
  }
  const out: Array<string> = []
  for (const name of [...byName.keys()].sort()) {
    const entry = byName.get(name)!
    if (entry.help !== undefined) out.push(`# HELP ${name} ${escapeHelp(entry.help)}`)
    out.push(`# TYPE ${name} ${entry.type}`)
    // Series in label order; a histogram's lines stay in bucket order.
    for (const each of entry.series.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) out.push(...each.lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/** One sample of a family: its labels, its value, and the suffix of its name (`_bucket`, `_sum`, `_count` of a histogram). */
export type Sample = readonly [Labels, number] | readonly [Labels, number, string]

/** One metric family written out whole, with its HELP and TYPE: for figures read outside Effect's registry. */
export const familyText = (name: string, type: "counter" | "gauge" | "histogram", help: string, samples: ReadonlyArray<Sample>): string =>
  [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`, ...samples.map(([labels, value, suffix]) => series(`${name}${suffix ?? ""}`, labels, value))]
    .join("\n") + "\n"
