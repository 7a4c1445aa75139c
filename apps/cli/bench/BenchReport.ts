/** The bench's figures: a table on the terminal and `bench/results.json` for machines. */
import * as fs from "node:fs"
import * as path from "node:path"

export type Figures = Record<string, number | string | null>

const ROOT = path.resolve(import.meta.dirname, "../../..")

const shown = (value: number | string | null | undefined) =>
  typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 0)) : String(value ?? "")

const write = (content: unknown) => {
  const file = path.join(ROOT, "bench/results.json")
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`)
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`)
}

export const report = (figures: Figures) => {
  const width = Math.max(...Object.keys(figures).map((key) => key.length))
  console.log("")
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(width)}  ${shown(value)}`)
  write(figures)
}

/** Figures measured once for both builds, or settings of the run: no ratio of theirs means anything. */
const SHARED = new Set([
  "db_limit_tps",
  "driver_limit_tps",
  "floor_cpu_ms_per_request",
  "http_floor_rps",
  "stored_payments",
  "backlog",
  "processes",
  "quick",
  "rounds"
])

/** this ÷ REF, for the figures each build has of its own, as numbers (null where REF's is 0). */
export const ratiosOf = (current: Figures, against: Figures): Figures =>
  Object.fromEntries(
    Object.entries(current).flatMap(([key, value]) => {
      const other = against[key]
      if (SHARED.has(key) || typeof value !== "number" || typeof other !== "number") return []
      return [[key, other === 0 ? null : Math.round((value / other) * 1000) / 1000]]
    })
  )

/**
 * `--against`: each figure of this build beside REF's and the ratio this ÷ REF (above 1 is more of
 * it: better for a rate, worse for a time, CPU or memory). `bench/results.json` keeps both, the
 * ratios and each round.
 */
export const reportSideBySide = (current: Figures, against: Figures, extra: Record<string, unknown>) => {
  const ratios = ratiosOf(current, against)
  const keys = [...new Set([...Object.keys(current), ...Object.keys(against)])]
  const head = ["figure", `this (${shown(current.commit)})`, `against (${shown(against.commit)})`, "this ÷ against"]
  const rows = keys.map((key) => [key, shown(current[key]), shown(against[key]), key in ratios ? shown(ratios[key]) : ""])
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  console.log("")
  for (const row of [head, ...rows]) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "))
  }
  write({ this: current, against, ratio: ratios, ...extra })
}
