import { alive, descendants, freePort } from "@orchestrator/testing"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
/** pnpm as a reader runs it: the one running this suite (`pnpm test`), else the one on PATH. */
const pnpm = process.env.npm_execpath !== undefined && /pnpm/.test(process.env.npm_execpath)
  ? [process.execPath, process.env.npm_execpath]
  : ["pnpm"]

describe("pnpm --filter @orchestrator/example-embed start", () => {
  it("answers a clear 503 with Retry-After until the core is ready, listens on 127.0.0.1 only, and stops with pnpm", async () => {
    const port = await freePort()
    const { HOST: _host, PORT: _port, ...env } = process.env
    const started = spawn(pnpm[0]!, [...pnpm.slice(1), "--filter", "@orchestrator/example-embed", "start"], {
      cwd: root,
      env: { ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    started.stderr.on("data", (chunk) => (output += chunk))
    const ready = new Promise<void>((resolve, reject) => {
      started.stdout.on("data", (chunk) => {
        output += chunk
        if (output.includes("Shop on ")) resolve()
      })
      started.on("close", (code) => reject(new Error(`pnpm exited with ${code}:\n${output}`)))
    })
    // Until it says it is ready, every answer it gives says it is starting (or it is not listening yet).
    const early: Array<{ status: number; retryAfter: string | null; body: unknown }> = []
    let isReady = false
    void ready.then(() => (isReady = true), () => (isReady = true))
    while (!isReady) {
      const answer = await fetch(`http://127.0.0.1:${port}/orders`, { method: "POST", body: "{}" }).then(
        async (response) => ({ status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() }),
        () => undefined
      )
      if (answer !== undefined && !isReady) early.push(answer)
      await new Promise((resume) => setTimeout(resume, 100))
    }
    await ready
    for (const answer of early) {
      expect(answer).toEqual({ status: 503, retryAfter: "1", body: { error: "starting", message: "The shop is starting; try again in a second." } })
    }
    const order = await fetch(`http://127.0.0.1:${port}/orders`, {
      method: "POST",
      body: JSON.stringify({ amount: 2500, currency: "EUR", token: "tok_visa" })
    })
    expect(order.status).toBe(201)
    // Not on the machine's other addresses: only the loopback one.
    expect(output).toContain(`Shop on http://127.0.0.1:${port}`)

    // A process manager stops pnpm, which does not pass the signal on: the shop notices and stops too.
    const shop = descendants(started.pid!)
    started.kill("SIGTERM")
    // Waits on the processes, not on time: each poll asks the kernel whether they still exist.
    while ([started.pid!, ...shop].some(alive)) await new Promise((resume) => setTimeout(resume, 100))
    const refused = await fetch(`http://127.0.0.1:${port}/orders`, { method: "POST", body: "{}" }).then(() => false, () => true)
    expect(refused).toBe(true)
  }, 180_000)
})
