/**
 * A `.cpuprofile` (V8's, from `node --cpu-prof`) summed up: busy time by where the code comes from
 * (our packages, each dependency, Node, GC) and the functions with the most self time. The bundle's
 * frames are mapped back to their sources through its source map.
 */
import * as fs from "node:fs"
import { SourceMap } from "node:module"
import * as path from "node:path"

const TOP = Number(process.env.PROFILE_TOP ?? 40)

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
    readonly columnNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

export interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The bundle's frames, mapped back to the file they were built from (its source map). */
const sourceMaps = new Map<string, SourceMap | null>()
const sourceOf = (frame: ProfileNode["callFrame"]): { readonly file: string; readonly line: number } => {
  if (!frame.url.startsWith("file://")) return { file: frame.url, line: frame.lineNumber + 1 }
  const file = new URL(frame.url).pathname
  if (!sourceMaps.has(file)) {
    const map = `${file}.map`
    sourceMaps.set(file, fs.existsSync(map) ? new SourceMap(JSON.parse(fs.readFileSync(map, "utf8"))) : null)
  }
  const entry = sourceMaps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber)
  return entry !== undefined && "originalSource" in entry
    ? { file: entry.originalSource, line: entry.originalLine + 1 }
    : { file, line: frame.lineNumber + 1 }
}

/** Where a frame's code comes from: a dependency by package name, our own package, or V8/Node. */
const originOf = (frame: ProfileNode["callFrame"], file: string): string => {
  if (frame.url === "") return `(${frame.functionName || "native"})`
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file)
  if (dependency !== null) return dependency[1]!
  if (file.startsWith("node:")) return "node"
  const own = /(?:packages|apps)\/([^/]+)\//.exec(file)
  return own !== null ? `@orchestrator/${own[1]}` : path.basename(file)
}

export const summarize = (profile: Profile) => {
  const selfMs = new Map<number, number>()
  profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000))
  const byOrigin = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let total = 0
  let idle = 0
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0
    if (ms === 0) continue
    total += ms
    if (node.callFrame.functionName === "(idle)") {
      idle += ms
      continue
    }
    const source = sourceOf(node.callFrame)
    const origin = originOf(node.callFrame, source.file)
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + ms)
    const name = `${node.callFrame.functionName || "(anonymous)"} ${origin}:${path.basename(source.file)}:${source.line}`
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms)
  }
  const busy = total - idle
  const table = (entries: Map<string, number>, top: number) =>
    [...entries.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([name, ms]) => `${(100 * ms / busy).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${name}`)
  return { busy, idle, total, byOrigin: table(byOrigin, 30), byFunction: table(byFunction, TOP) }
}

/** The summary of the newest profile in `directory`, printed with `label` before each line. */
export const printNewestProfile = (directory: string, label: string) => {
  const file = fs.readdirSync(directory).filter((entry) => entry.endsWith(".cpuprofile"))
    .map((entry) => path.join(directory, entry))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]
  if (file === undefined) throw new Error(`no profile was written in ${directory}`)
  const summary = summarize(JSON.parse(fs.readFileSync(file, "utf8")) as Profile)
  console.log(`[${label}] ${file}: busy ${summary.busy.toFixed(0)} ms, idle ${summary.idle.toFixed(0)} ms`)
  console.log(`[${label}] busy time by origin`)
  for (const line of summary.byOrigin) console.log(line)
  console.log(`[${label}] functions by self time`)
  for (const line of summary.byFunction) console.log(line)
  return summary
}
