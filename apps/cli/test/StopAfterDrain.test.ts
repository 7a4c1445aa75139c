import { SettingsConfig } from "@orchestrator/application"
import { freePort } from "@orchestrator/testing"
import { ConfigProvider, Effect, Fiber, Logger } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { serve } from "../src/Commands.js"

/** How long the sandbox takes to answer: the payment is still running when the service is told to stop. */
const PSP_LATENCY_MS = 1500

describe("stopping", () => {
  it("says how many requests it waits for, and 'Stopped cleanly.' only once they have all been answered", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-stop-"))
    const port = await freePort()
    const key = `sk_test_${"Drain0".repeat(6)}`
    const settings = Effect.runSync(Effect.withConfigProvider(
      SettingsConfig,
      ConfigProvider.fromMap(new Map([["ORCHESTRATOR_DATA_DIR", dataDir], ["PORT", String(port)], ["ORCHESTRATOR_DEV_API_KEY", key]]))
    ))
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    // What SIGTERM does to `orchestrator start`: the running program is interrupted.
    const running = Effect.runFork(serve(settings, { http: true, worker: true }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger))))
    const base = `http://127.0.0.1:${port}`
    const call = (route: string, body?: unknown) =>
      fetch(`${base}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          ...(body === undefined ? {} : { "idempotency-key": `stop-${Math.random()}` })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    // Up, with the development organization made.
    while ((await call("/v1/payments?limit=1").catch(() => undefined))?.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const connected = await call("/v1/provider-connections", { name: "slow_psp", type: "sandbox", settings: { latency_ms: PSP_LATENCY_MS } })
    expect(connected.status).toBe(201)

    const payment = call("/v1/payments", { amount: 1050, currency: "EUR", provider: "slow_psp", payment_method: { type: "card", token: "tok_visa" } })
    // The payment is written and on its way to the PSP when the stop comes.
    while (((await (await call("/v1/payments?limit=1")).json()) as { data: Array<unknown> }).data.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await Effect.runPromise(Fiber.interrupt(running))

    expect((await payment).status).toBe(201)
    const waiting = lines.findIndex((line) => line === "Shutting down: waiting for 1 running request(s) to finish")
    const answered = lines.findIndex((line) => /^POST \/v1\/payments 201 /.test(line))
    const stopped = lines.indexOf("Stopped cleanly.")
    const log = lines.join("\n")
    expect(waiting, log).toBeGreaterThanOrEqual(0)
    expect(answered, log).toBeGreaterThan(waiting)
    expect(stopped, log).toBeGreaterThan(answered)
    expect(stopped, log).toBe(lines.length - 1)
    await fs.rm(dataDir, { recursive: true, force: true })
  }, 120_000)
})
