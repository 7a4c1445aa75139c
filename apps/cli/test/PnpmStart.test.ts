import { alive, descendants, freePort } from "@orchestrator/testing"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const launcher = path.join(root, "bin/orchestrator")
/** pnpm as the newcomer runs it: the one running this suite (`pnpm test`), else the one on PATH. */
const pnpm = process.env.npm_execpath !== undefined && /pnpm/.test(process.env.npm_execpath)
  ? [process.execPath, process.env.npm_execpath]
  : ["pnpm"]

const cleanEnv = (env: Record<string, string>) => {
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(PORT|DATABASE_URL|ORCHESTRATOR_.*|LOG_LEVEL|npm_.*)$/.test(name)) clean[name] = value
  }
  return { ...clean, ...env }
}

const gone = async (pids: ReadonlyArray<number>) => {
  // Waits on other processes, not on time: each poll asks the kernel whether they still exist.
  while (pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100))
}

// The first start on a fresh clone builds the bundle (half a minute alone, more beside other suites).
describe("pnpm start", () => {
  it("says Starting… first, serves from the built bundle, and SIGTERM to pnpm stops everything and frees the database", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-start-"))
    const port = await freePort()
    const env = cleanEnv({ ORCHESTRATOR_DATA_DIR: dataDir, PORT: String(port) })
    const started = spawn(pnpm[0]!, [...pnpm.slice(1), "start"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    started.stderr.on("data", (chunk) => (output += chunk))
    const ready = await new Promise<string>((resolve, reject) => {
      started.stdout.on("data", (chunk) => {
        output += chunk
        if (output.includes("API: ")) resolve(output)
      })
      started.on("close", (code) => reject(new Error(`pnpm start exited with ${code}:\n${output}`)))
    })
    // pnpm's own header (`> … start`) comes first; the service's first words are "Starting…".
    const ours = ready.split("\n").filter((line) => line.trim() !== "" && !line.startsWith(">"))
    expect(ours[0]).toBe("Starting…")
    expect(ready).toMatch(/Development API key \(test mode\): sk_test_\w+/)
    const service = descendants(started.pid!)
    const commands = service.map((pid) => execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }))
    expect(commands.some((command) => command.includes("apps/cli/dist/orchestrator.mjs start"))).toBe(true)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)

    // A process manager stops pnpm, which does not pass the signal on: the service notices and stops too.
    started.kill("SIGTERM")
    await gone([started.pid!, ...service])
    expect(output).toContain("Stopped cleanly.")
    // The embedded database is free again: another command opens it.
    const migrated = execFileSync(launcher, ["migrate"], { env: cleanEnv({ ORCHESTRATOR_DATA_DIR: dataDir }), encoding: "utf8" })
    expect(migrated).toContain("up to date")
  }, 300_000)
})
