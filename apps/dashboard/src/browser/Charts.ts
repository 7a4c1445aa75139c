import { h, s } from "./Dom.js"

export interface Series {
  readonly name: string
  /** One value per point of the x axis; `null` is a gap (nothing to measure there). */
  readonly values: ReadonlyArray<number | null>
}

const WIDTH = 520
const HEIGHT = 200
const PAD = { left: 56, right: 12, top: 12, bottom: 28 }

const niceMax = (max: number) => {
  if (max <= 0) return 1
  const magnitude = 10 ** Math.floor(Math.log10(max))
  return [1, 2, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= max)!
}

const legend = (series: ReadonlyArray<Series>) =>
  h("div", { class: "legend" }, series.map((each, index) => h("span", {}, h("span", { class: `swatch series-${index % 5}` }), each.name)))

/**
 * A line per series over shared x labels, drawn as SVG by hand. The figure has a text summary for
 * screen readers; the numbers behind it are in the tables of the other pages.
 */
export const lineChart = (options: {
  readonly title: string
  readonly labels: ReadonlyArray<string>
  readonly series: ReadonlyArray<Series>
  readonly format: (value: number) => string
  readonly max?: number
  readonly summary: string
  readonly id: string
}) => {
  const { labels, series } = options
  const observed = series.flatMap((each) => each.values.filter((value): value is number => value !== null))
  const top = options.max ?? niceMax(Math.max(0, ...observed))
  const x = (index: number) => PAD.left + (labels.length <= 1 ? 0 : (index / (labels.length - 1)) * (WIDTH - PAD.left - PAD.right))
  const y = (value: number) => PAD.top + (1 - value / top) * (HEIGHT - PAD.top - PAD.bottom)
  const ticks = [0, top / 2, top]
  const every = Math.max(1, Math.ceil(labels.length / 6))
  const svg = s(
    "svg",
    { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": `${options.title}: ${options.summary}` },
    ticks.map((tick) => [
      s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(tick), y2: y(tick) }),
      s("text", { x: PAD.left - 6, y: y(tick) + 4, "text-anchor": "end" }, options.format(tick))
    ]),
    labels.map((label, index) => index % every === 0 ? s("text", { x: x(index), y: HEIGHT - 8, "text-anchor": "middle" }, label) : null),
    series.map((each, index) => {
      // A gap splits the line: no value is not zero.
      const runs: Array<Array<string>> = [[]]
      each.values.forEach((value, at) => {
        if (value === null) runs.push([])
        else runs[runs.length - 1]!.push(`${x(at).toFixed(1)},${y(value).toFixed(1)}`)
      })
      return runs.filter((run) => run.length > 0).map((run) =>
        run.length === 1
          ? s("circle", { class: `series-${index % 5}`, cx: run[0]!.split(",")[0]!, cy: run[0]!.split(",")[1]!, r: 3 })
          : s("polyline", { class: `line series-${index % 5}`, points: run.join(" ") })
      )
    })
  )
  return h(
    "figure",
    { class: "card", id: options.id },
    h("h3", {}, options.title),
    svg,
    legend(series),
    h("figcaption", { class: "visually-hidden" }, options.summary)
  )
}

/** One horizontal bar split into parts, e.g. deliveries succeeded / pending / exhausted. */
export const partsBar = (options: {
  readonly title: string
  readonly parts: ReadonlyArray<{ readonly label: string; readonly value: number; readonly tone: "ok" | "warn" | "bad" }>
  readonly id: string
}) => {
  const total = options.parts.reduce((sum, part) => sum + part.value, 0)
  let offset = 0
  const svg = s(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${WIDTH} 40`,
      role: "img",
      "aria-label": `${options.title}: ${options.parts.map((part) => `${part.value} ${part.label}`).join(", ")}`
    },
    total === 0
      ? s("rect", { x: 0, y: 4, width: WIDTH, height: 32, class: "axis", fill: "#eceef2" })
      : options.parts.map((part) => {
        const width = (part.value / total) * WIDTH
        const rect = s("rect", { x: offset, y: 4, width, height: 32, class: `fill-${part.tone}` })
        offset += width
        return rect
      })
  )
  return h(
    "figure",
    { class: "card", id: options.id },
    h("h3", {}, options.title),
    svg,
    h(
      "div",
      { class: "legend" },
      options.parts.map((part) => h("span", { "data-part": part.label }, h("span", { class: `swatch fill-${part.tone}` }), `${part.label}: ${part.value}`))
    )
  )
}
