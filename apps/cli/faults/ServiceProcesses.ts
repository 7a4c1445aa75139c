/**
 * The service as an operator runs it: `bin/orchestrator http` and `worker` processes on one
 * PostgreSQL, started, killed with SIGKILL and started again.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as path from "node:path"
import { OutputScan } from "./CardNumbers.js"

export { freePort } from "@orchestrator/testing/node"

const ROOT = path.resolve(import.meta.dirname, "../../..")
const BIN = path.join(ROOT, "bin/orchestrator")

export interface ServiceEnvironment {
  readonly [name: string]: string
}

/** Runs a one-shot CLI command and returns what it printed. */
export const cli = (env: ServiceEnvironment, ...args: Array<string>) => execFileSync(BIN, args, { env: { ...process.env, ...env }, encoding: "utf8" })

export class ServiceProcess {
  private child: ChildProcess | undefined
  private output: Array<string> = []
  restarts = 0

  constructor(
    readonly name: string,
    readonly role: "http" | "worker",
    readonly env: ServiceEnvironment
  ) {}

  /** Every line it printed, searched for the vaulted card's number (the kept output is only the last lines). */
  readonly scan = new OutputScan()

  start() {
    const child = spawn(BIN, [this.role], { env: { ...process.env, ...this.env }, stdio: ["ignore", "pipe", "pipe"] })
    const keep = (chunk: Buffer) => {
      const text = chunk.toString("utf8")
      this.scan.read(text)
      this.output.push(text)
      if (this.output.length > 200) this.output.shift()
    }
    child.stdout!.on("data", keep)
    child.stderr!.on("data", keep)
    this.child = child
  }

  /** The last lines it printed, for a failure report. */
  get log() {
    return this.output.join("")
  }

  /** Sends `signal` and waits for the exit; a process that has not exited 10 s after SIGTERM is killed. */
  kill(signal: NodeJS.Signals) {
    const child = this.child
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const stubborn = setTimeout(() => child.kill("SIGKILL"), 10_000)
      child.once("exit", () => {
        clearTimeout(stubborn)
        resolve()
      })
      child.kill(signal)
    })
  }

  async restart() {
    await this.kill("SIGKILL")
    this.restarts++
    this.start()
  }
}

/** Waits until `url` answers 200 (a process is up and its database ready). */
export const waitUntilReady = async (url: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (response.status === 200) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms`)
}
