/** The bench's figures: a table on the terminal and `bench/results.json` for machines. */
import * as fs from "node:fs"
import * as path from "node:path"

export type Figures = Record<string, number | string | null>

const ROOT = path.resolve(import.meta.dirname, "../../..")

export const report = (figures: Figures) => {
  const width = Math.max(...Object.keys(figures).map((key) => key.length))
  console.log("")
  for (const [key, value] of Object.entries(figures)) {
    const shown = typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 0)) : String(value)
    console.log(`${key.padEnd(width)}  ${shown}`)
  }
  const file = path.join(ROOT, "bench/results.json")
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`)
}
