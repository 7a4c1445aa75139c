/**
 * `pnpm bench:profile`: where the HTTP process spends its CPU on card payments. It starts the built
 * service on PostgreSQL (`http` under `node --cpu-prof`, and `worker`), sends `PROFILE_SECONDS` of
 * payments at 32 connections, stops the service and prints the profile's busy time by where the code
 * comes from (our packages, each dependency, Node, GC) and the functions with the most self time.
 * The `.cpuprofile` stays in `PROFILE_DIR` (default a temporary directory) for Chrome's DevTools.
 * Needs `DATABASE_URL`; a database of its own is made beside it and dropped after.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import { SourceMap } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { buildService, cli, type Env, freePort, RunningService } from "./BenchService.js"
import { closedLoop } from "./LoadGenerator.js"

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10)
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

interface Profile {
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

const main = async () => {
  const postgresUrl = process.env.DATABASE_URL
  if (postgresUrl === undefined || postgresUrl === "") throw new Error("pnpm bench:profile needs DATABASE_URL (PostgreSQL)")
  const name = `bench_profile_${Date.now()}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-profile-"))
  const profileDir = process.env.PROFILE_DIR ?? path.join(dataDir, "profile")
  const adminUrl = Object.assign(new URL(postgresUrl), { pathname: "/postgres" }).toString()
  const benchUrl = Object.assign(new URL(postgresUrl), { pathname: `/${name}` }).toString()
  execFileSync("psql", [adminUrl, "-X", "-qc", `create database "${name}"`])
  const env: Env = {
    ORCHESTRATOR_DATA_DIR: dataDir,
    ORCHESTRATOR_ENCRYPTION_KEY: "b3".repeat(32),
    LOG_LEVEL: "warn",
    ORCHESTRATOR_RATE_LIMIT_TEST: "1000000",
    DATABASE_URL: benchUrl
  }
  let service: RunningService | undefined
  try {
    if (process.env.PROFILE_SKIP_BUILD !== "1") buildService()
    cli(env, "migrate")
    const organizationId = /Created organization (org_\w+)/.exec(cli(env, "org", "create", "--name", name))![1]!
    const secret = /: (sk_test_\w+)/.exec(cli(env, "keys", "create", "--org", organizationId))![1]!
    const port = await freePort()
    fs.mkdirSync(profileDir, { recursive: true })
    const load = (seconds: number, prefix: string) =>
      closedLoop({
        url: `http://127.0.0.1:${port}/v1/payments`,
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } }),
        connections: 32,
        seconds,
        keyPrefix: prefix
      })
    // Warmed without the profiler first would mean two processes; the profile's first seconds are
    // the warm-up's, a small share of the whole.
    service = await RunningService.start(env, ["http", "worker"], port, {}, {
      http: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]
    })
    const cpuBefore = service.cpuMs("http")
    const result = await load(SECONDS, "profile")
    const cpuPerPayment = (service.cpuMs("http") - cpuBefore) / result.completed
    await service.stop()
    service = undefined
    const file = fs.readdirSync(profileDir).filter((entry) => entry.endsWith(".cpuprofile"))
      .map((entry) => path.join(profileDir, entry))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]
    if (file === undefined) throw new Error(`no profile was written in ${profileDir}`)
    const summary = summarize(JSON.parse(fs.readFileSync(file, "utf8")) as Profile)
    console.log(
      `[profile] ${result.completed} payments in ${SECONDS} s (${result.requestsPerSecond.toFixed(0)}/s), ` +
        `cpu_ms_per_payment ${cpuPerPayment.toFixed(2)} (under the profiler), busy ${summary.busy.toFixed(0)} ms, idle ${summary.idle.toFixed(0)} ms`
    )
    console.log(`[profile] ${file}`)
    console.log("[profile] busy time by origin")
    for (const line of summary.byOrigin) console.log(line)
    console.log("[profile] functions by self time")
    for (const line of summary.byFunction) console.log(line)
  } finally {
    await service?.stop()
    execFileSync("psql", [adminUrl, "-X", "-qc", `drop database if exists "${name}" with (force)`])
    if (process.env.PROFILE_DIR === undefined) fs.rmSync(path.join(dataDir, "postgres"), { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
