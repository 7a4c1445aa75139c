import { freePort } from "@orchestrator/testing"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/** Launched as an operator would: through `bin/orchestrator`, so signals go where they go in production. */
const launcher = fileURLToPath(new URL("../../../bin/orchestrator", import.meta.url))

/** The environment of a clean machine: none of the service's variables unless a test sets them. */
const baseEnv = () => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(PORT|DATABASE_URL|ORCHESTRATOR_.*|LOG_LEVEL)$/.test(name)) env[name] = value
  }
  return env
}

const launch = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  spawn(launcher, [...args], {
    env: { ...baseEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })

interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const collect = (child: ChildProcess) =>
  new Promise<Finished>((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk) => (stdout += chunk))
    child.stderr!.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

const run = (args: ReadonlyArray<string>, env: Record<string, string>) => collect(launch(args, env))

/** Starts `start`, resolves once the API line is printed, with the process and what it printed so far. */
const startService = async (env: Record<string, string>) => {
  const child = launch(["start"], env)
  const finished = collect(child)
  const output = await new Promise<string>((resolve, reject) => {
    let seen = ""
    child.stdout!.on("data", (chunk) => {
      seen += chunk
      if (seen.includes("API: ")) resolve(seen)
    })
    child.on("close", (code) => reject(new Error(`exited with ${code} before starting`)))
  })
  return { child, output, finished }
}

const tempDir = () => fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-cli-"))

// Each case starts the tool from its TypeScript sources (tsx compiles them at every start): on two
// shared cores, with the other suites running beside it, a start can take a minute.
describe("command-line tool", () => {
  it("refuses invalid configuration with a one-line reason and exit code 1", async () => {
    const dataDir = await tempDir()
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: "eighty" }, /PORT/],
      [{ DATABASE_URL: "mysql://localhost/db" }, /DATABASE_URL must be a postgres/],
      [{ ORCHESTRATOR_ENCRYPTION_KEY: "too-short" }, /ORCHESTRATOR_ENCRYPTION_KEY must be 64 hexadecimal/],
      [{ ORCHESTRATOR_DEV_API_KEY: `sk_live_${"a".repeat(40)}` }, /ORCHESTRATOR_DEV_API_KEY must be a test key/],
      [{ ORCHESTRATOR_BASE_URL: "localhost:3000" }, /ORCHESTRATOR_BASE_URL must be an http/],
      // The hop count this setting used to take: the reason names the list it takes now.
      [{ ORCHESTRATOR_TRUSTED_PROXIES: "1" }, /ORCHESTRATOR_TRUSTED_PROXIES no longer takes a count .* addresses or CIDRs/],
      [{ ORCHESTRATOR_TRUST_INCOMING_TRACES: "maybe" }, /ORCHESTRATOR_TRUST_INCOMING_TRACES/]
    ]
    const results = await Promise.all(cases.map(([env]) => run(["start"], { ORCHESTRATOR_DATA_DIR: dataDir, ...env })))
    results.forEach((result, index) => {
      expect(result.code).toBe(1)
      const lines = result.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^configuration error: /)
      expect(lines[0]).toMatch(cases[index]![1])
      expect(result.stderr + result.stdout).not.toContain("too-short")
    })
    const usage = await run(["frobnicate"], { ORCHESTRATOR_DATA_DIR: dataDir })
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("unknown command 'frobnicate'")
  }, 180_000)

  it("creates an organization and keys, serves them, survives SIGTERM and a restart, and revokes", async () => {
    const dataDir = await tempDir()
    const env = { ORCHESTRATOR_DATA_DIR: dataDir, LOG_LEVEL: "warn" }

    const org = await run(["org", "create", "--name", "Acme Shop"], env)
    expect(org.code).toBe(0)
    const organizationId = /Created organization (org_\w+)/.exec(org.stdout)![1]!
    const key = await run(["keys", "create", "--org", organizationId], env)
    expect(key.code).toBe(0)
    const secret = /Secret \(shown once, store it now\): (sk_test_\w+)/.exec(key.stdout)![1]!
    const keyId = /Created test key (key_\w+)/.exec(key.stdout)![1]!
    expect(await fs.readFile(path.join(dataDir, "encryption.key"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/)

    const port = await freePort()
    const first = await startService({ ...env, PORT: String(port) })
    const base = `http://127.0.0.1:${port}`
    // Into a pipe the log is JSON lines only: the key and the addresses are entries like the others.
    const lines = first.output.trim().split("\n").map((line) => JSON.parse(line) as { message: string })
    expect(lines.map((line) => line.message)).toContainEqual(expect.stringMatching(/^API: http:\/\/localhost:\d+\/v1 · docs: /))
    // The embedded start is this machine's only: not reachable on its other addresses.
    const outward = Object.values(os.networkInterfaces()).flat().find((address) => address?.family === "IPv4" && !address.internal)
    if (outward !== undefined) {
      expect(await fetch(`http://${outward.address}:${port}/healthz`).then(() => "answered", () => "refused")).toBe("refused")
    }
    const created = await fetch(`${base}/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "idempotency-key": "cli-1" },
      body: JSON.stringify({ amount: 990, currency: "USD", payment_method: { type: "card", token: "tok_visa" } })
    })
    expect(created.status).toBe(201)
    const payment = await created.json()
    first.child.kill("SIGTERM")
    const stopped = await first.finished
    expect(stopped.code).toBe(0)
    expect(stopped.stdout + stopped.stderr).not.toContain(secret)

    const second = await startService({ ...env, PORT: String(port) })
    const again = await fetch(`${base}/v1/payments/${payment.id}`, { headers: { authorization: `Bearer ${secret}` } })
    expect([again.status, (await again.json()).status]).toEqual([200, "succeeded"])
    second.child.kill("SIGTERM")
    expect((await second.finished).code).toBe(0)

    const revoked = await run(["keys", "revoke", keyId], env)
    expect([revoked.code, revoked.stdout]).toEqual([0, expect.stringContaining(`Revoked key ${keyId}`)])
    const third = await startService({ ...env, PORT: String(port) })
    const refused = await fetch(`${base}/v1/payments`, { headers: { authorization: `Bearer ${secret}` } })
    expect(refused.status).toBe(401)
    third.child.kill("SIGTERM")
    await third.finished

    const missing = await run(["keys", "create", "--org", "org_nope"], env)
    expect([missing.code, missing.stderr.trim()]).toEqual([1, "No such organization: 'org_nope'"])
  }, 240_000)

  it("bootstraps the development organization: a generated key that stays, or ORCHESTRATOR_DEV_API_KEY", async () => {
    const dataDir = await tempDir()
    const env = { ORCHESTRATOR_DATA_DIR: dataDir, LOG_LEVEL: "warn" }
    const port = await freePort()

    const first = await startService({ ...env, PORT: String(port) })
    const generated = /Development API key \(test mode\): (sk_test_\w+)/.exec(first.output)![1]!
    const ok = await fetch(`http://127.0.0.1:${port}/v1/payments`, { headers: { authorization: `Bearer ${generated}` } })
    expect(ok.status).toBe(200)
    first.child.kill("SIGTERM")
    await first.finished

    const chosen = `sk_test_${"Dev".repeat(12)}`
    const second = await startService({ ...env, PORT: String(port), ORCHESTRATOR_DEV_API_KEY: chosen })
    expect(second.output).not.toContain(chosen)
    for (const key of [generated, chosen]) {
      const response = await fetch(`http://127.0.0.1:${port}/v1/payments`, { headers: { authorization: `Bearer ${key}` } })
      expect(response.status).toBe(200)
    }
    second.child.kill("SIGTERM")
    await second.finished

    const third = await startService({ ...env, PORT: String(port) })
    expect(third.output).toContain(`Development API key (test mode): ${generated}`)
    third.child.kill("SIGTERM")
    expect((await third.finished).code).toBe(0)
  }, 240_000)
})
