import { freePort } from "@orchestrator/testing"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** A shell's entry run as a deployment runs it: node, the environment, no command-line tool. */
const startShell = (entry: string, env: Record<string, string>) => {
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(PORT|DATABASE_URL|ORCHESTRATOR_.*|LOG_LEVEL|npm_.*|OTEL_.*)$/.test(name)) clean[name] = value
  }
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, entry)], { cwd: root, env: { ...clean, ...env } })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  return { child, output: () => output }
}

/** Waits on the process's own output, not on time: it says when it is ready. */
const waitFor = async (shell: { readonly child: ChildProcess; readonly output: () => string }, text: string) => {
  while (!shell.output().includes(text)) {
    if (shell.child.exitCode !== null) throw new Error(`exited ${shell.child.exitCode} before "${text}":\n${shell.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const stopped = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

describe("the shells run alone", () => {
  it("apps/http/src/run.ts serves the API from the environment alone, and SIGTERM stops it cleanly", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-http-alone-"))
    const port = await freePort()
    const shell = startShell("apps/http/src/run.ts", { PORT: String(port), ORCHESTRATOR_DATA_DIR: dataDir, LOG_LEVEL: "info" })
    await waitFor(shell, "Development API key")
    const key = /sk_test_[A-Za-z0-9]+/.exec(shell.output())![0]
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(health.status).toBe(200)
    const payment = await fetch(`http://127.0.0.1:${port}/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "idempotency-key": "alone-1", "content-type": "application/json" },
      body: JSON.stringify({ amount: 2500, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })
    })
    expect([payment.status, (await payment.json()).status]).toEqual([201, "succeeded"])
    const exit = stopped(shell.child)
    shell.child.kill("SIGTERM")
    expect(await exit).toBe(0)
    expect(shell.output()).toContain("Stopped cleanly.")
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  it("apps/worker/src/run.ts runs the jobs from the environment alone, serving no API, and SIGTERM stops it cleanly", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-worker-alone-"))
    const metricsPort = await freePort()
    const shell = startShell("apps/worker/src/run.ts", {
      ORCHESTRATOR_DATA_DIR: dataDir,
      ORCHESTRATOR_METRICS_PORT: String(metricsPort),
      LOG_LEVEL: "info"
    })
    await waitFor(shell, "Storage:")
    // Its jobs pass: each pass is counted on its own metrics port.
    let metrics = ""
    while (!/orchestrator_job_passes_total\{job="dispatch-events"/.test(metrics)) {
      metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((answer) => answer.text(), () => "")
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(shell.output()).not.toContain("API:")
    const exit = stopped(shell.child)
    shell.child.kill("SIGTERM")
    expect(await exit).toBe(0)
    expect(shell.output()).toContain("Stopped cleanly.")
    await fs.rm(dataDir, { recursive: true, force: true })
  })
})
