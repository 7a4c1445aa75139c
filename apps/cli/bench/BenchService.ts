/**
 * The service as it runs in production, started from the command-line tool in processes of its own
 * (the load generator never shares a process with it): `start` on the embedded database (one
 * process), `http` and `worker` on PostgreSQL.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { cpuMs } from "./ProcessCpu.js"

const ROOT = path.resolve(import.meta.dirname, "../../..")

/** The built service (`pnpm build`, run first), as production runs it: plain node, no transpiler. */
const BUILT = path.join(ROOT, "apps/cli/dist/orchestrator.mjs")

/** Builds the service once per bench run, so the figures are always of the code as it stands. */
export const buildService = () => execFileSync("pnpm", ["-s", "build"], { cwd: ROOT, stdio: "inherit" })

/** The bundle run: this build, or `BENCH_BUNDLE` (another build, e.g. a copy of an earlier one). */
export const defaultBundle = () => process.env.BENCH_BUNDLE || BUILT

const run = (args: ReadonlyArray<string>, nodeArgs: ReadonlyArray<string> = [], bundle = defaultBundle()) =>
  [process.execPath, [...nodeArgs, bundle, ...args]] as const

export { freePort } from "@orchestrator/testing/node"

export type Env = Readonly<Record<string, string>>

/** The command-line tool of `bundle` (`pnpm bench --against` runs two). */
export const cliOf = (bundle: string, env: Env, ...args: Array<string>) =>
  execFileSync(...run(args, [], bundle), { env: { ...process.env, ...env }, encoding: "utf8" })

export const cli = (env: Env, ...args: Array<string>) => cliOf(defaultBundle(), env, ...args)

/**
 * What a probe of its own (`bench:statements`, `bench:profile`, `bench:deliveries`) runs the service
 * on: a database made beside `DATABASE_URL`'s, a data directory, and the environment for both (rate
 * limit lifted, warnings only, `extra` on top). `remove` drops the database (unless kept, to inspect)
 * and the directory.
 */
export const scratchService = (command: string, prefix: string, extra: Env = {}) => {
  const postgresUrl = process.env.DATABASE_URL
  if (postgresUrl === undefined || postgresUrl === "") throw new Error(`${command} needs DATABASE_URL (PostgreSQL)`)
  const name = `${prefix}_${Date.now()}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `orchestrator-${prefix}-`))
  const adminUrl = Object.assign(new URL(postgresUrl), { pathname: "/postgres" }).toString()
  const url = Object.assign(new URL(postgresUrl), { pathname: `/${name}` }).toString()
  execFileSync("psql", [adminUrl, "-X", "-qc", `create database "${name}"`])
  const env: Env = {
    ORCHESTRATOR_DATA_DIR: dataDir,
    ORCHESTRATOR_ENCRYPTION_KEY: "b3".repeat(32),
    // On PostgreSQL the vault's keys are required (every process must open every card, and fingerprint it alike).
    ORCHESTRATOR_VAULT_KEYS: `1:${Buffer.alloc(32, 0xb3).toString("base64")}`,
    ORCHESTRATOR_VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 0xb3 ^ 1).toString("base64"),
    LOG_LEVEL: "warn",
    ORCHESTRATOR_RATE_LIMIT_TEST: "1000000",
    DATABASE_URL: url,
    ...extra
  }
  return {
    name,
    dataDir,
    url,
    env,
    remove: (options: { readonly keepDatabase?: boolean } = {}) => {
      if (options.keepDatabase !== true) execFileSync("psql", [adminUrl, "-X", "-qc", `drop database if exists "${name}" with (force)`])
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** The database migrated, and an organization with a test key, through the command-line tool. */
export const migratedMerchant = (env: Env, name: string, bundle = defaultBundle()) => {
  cliOf(bundle, env, "migrate")
  const organizationId = /Created organization (org_\w+)/.exec(cliOf(bundle, env, "org", "create", "--name", name))![1]!
  const secret = /: (sk_test_\w+)/.exec(cliOf(bundle, env, "keys", "create", "--org", organizationId))![1]!
  return { organizationId, secret }
}

/**
 * Resident memory of a process and its children (the largest of them), in MiB: its peak so far
 * (`VmHWM`) or now (`VmRSS`).
 */
const rssMb = (pid: number, field: "VmHWM" | "VmRSS" = "VmHWM"): number => {
  const own = (() => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
      return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
    } catch {
      return 0
    }
  })()
  let children: Array<number> = []
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    children = []
  }
  return Math.max(own, ...children.map((child) => rssMb(child, field)))
}

export type Role = "start" | "http" | "worker"

export class RunningService {
  private constructor(
    private readonly children: ReadonlyArray<ChildProcess>,
    private readonly roles: ReadonlyArray<Role>,
    readonly url: string
  ) {}

  /**
   * `roleEnv` adds to `env` for one role only (the bench points one role at a counting relay);
   * `roleNodeArgs` are Node's own options for one role (`--cpu-prof`, which NODE_OPTIONS refuses);
   * `bundle` is the build run.
   */
  static async start(
    env: Env,
    roles: ReadonlyArray<Role>,
    port: number,
    roleEnv: Partial<Record<Role, Env>> = {},
    roleNodeArgs: Partial<Record<Role, ReadonlyArray<string>>> = {},
    bundle = defaultBundle()
  ) {
    const children = roles.map((role) =>
      spawn(...run([role], roleNodeArgs[role], bundle), {
        env: { ...process.env, ...env, ...roleEnv[role], PORT: String(port) },
        stdio: ["ignore", "ignore", "inherit"]
      })
    )
    const service = new RunningService(children, roles, `http://127.0.0.1:${port}`)
    const deadline = Date.now() + 120_000
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${service.url}/readyz`)).status === 200) return service
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await service.stop()
    throw new Error("the service did not become ready within two minutes")
  }

  /** The largest peak RSS of the service's processes (each HTTP process counts on its own). */
  get peakRssMb() {
    return Math.max(...this.children.map((child) => (child.pid === undefined ? 0 : rssMb(child.pid))))
  }

  /** Resident memory of `role`'s processes now (the largest of them). */
  rssMb(role: Role) {
    const child = this.children[this.roles.indexOf(role)]
    return child?.pid === undefined ? 0 : rssMb(child.pid, "VmRSS")
  }

  /** CPU time used so far by the processes of `role` (`start` serves HTTP on the embedded database). */
  cpuMs(role: Role) {
    const child = this.children[this.roles.indexOf(role)]
    return child?.pid === undefined ? 0 : cpuMs(child.pid)
  }

  async stop() {
    await Promise.all(this.children.map((child) =>
      child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => {
        const stubborn = setTimeout(() => child.kill("SIGKILL"), 20_000)
        child.once("exit", () => {
          clearTimeout(stubborn)
          resolve()
        })
        child.kill("SIGTERM")
      })
    ))
  }
}
