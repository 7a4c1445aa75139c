/**
 * A build under the bench: its bundle, a database of its own (on `DATABASE_URL`'s server, migrated by
 * that build's own command-line tool, so two builds of different schemas sit side by side on the same
 * server), a data directory, and a merchant with a test key.
 */
import { Database } from "@orchestrator/sql"
import { Redacted } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type Env, migratedMerchant, type Role } from "./BenchService.js"

export interface Target {
  /** The build's short commit. */
  readonly commit: string
  readonly bundle: string
  readonly name: string
  readonly database: Database.DatabaseConfig
  /** Its PostgreSQL database, or undefined on the embedded one. */
  readonly url: string | undefined
  readonly env: Env
  readonly roles: ReadonlyArray<Role>
  readonly organizationId: string
  readonly headers: Record<string, string>
  readonly remove: () => void
}

export const prepareTarget = (options: { readonly commit: string; readonly bundle: string; readonly name: string }): Target => {
  const postgresUrl = process.env.DATABASE_URL || undefined
  const { name } = options
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-bench-"))
  const adminUrl = postgresUrl === undefined ? undefined : Object.assign(new URL(postgresUrl), { pathname: "/postgres" }).toString()
  const url = postgresUrl === undefined ? undefined : Object.assign(new URL(postgresUrl), { pathname: `/${name}` }).toString()
  const remove = () => {
    if (adminUrl !== undefined) execFileSync("psql", [adminUrl, "-X", "-qc", `drop database if exists "${name}" with (force)`])
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  if (adminUrl !== undefined) execFileSync("psql", [adminUrl, "-X", "-qc", `create database "${name}"`])
  const env: Env = {
    ORCHESTRATOR_DATA_DIR: dataDir,
    ORCHESTRATOR_ENCRYPTION_KEY: "b3".repeat(32),
    // On PostgreSQL the vault's keys are required (every process must open every card, and fingerprint it alike).
    ORCHESTRATOR_VAULT_KEYS: `1:${Buffer.alloc(32, 0xb3).toString("base64")}`,
    ORCHESTRATOR_VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 0xb3 ^ 1).toString("base64"),
    LOG_LEVEL: "warn",
    ORCHESTRATOR_RATE_LIMIT_TEST: "1000000",
    // The webhook receiver of the delivery phase listens on this machine (PostgreSQL denies that by default).
    ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow",
    ...(url === undefined ? {} : { DATABASE_URL: url })
  }
  try {
    const { organizationId, secret } = migratedMerchant(env, name, options.bundle)
    return {
      commit: options.commit,
      bundle: options.bundle,
      name,
      database: url === undefined
        ? { _tag: "Embedded", dataDir: path.join(dataDir, "postgres") }
        : { _tag: "Postgres", url: Redacted.make(url) },
      url,
      // The vaulted-payment phase vaults its card through the API (raw card data, as a migrating merchant would).
      env: { ...env, ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS: organizationId },
      roles: url === undefined ? ["start"] : ["http", "worker"],
      organizationId,
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      remove
    }
  } catch (error) {
    remove()
    throw error
  }
}

/** The sandbox connection the merchant was made with (pgbench's script writes attempts on it). */
export const sandboxConnectionId = (target: Target) =>
  execFileSync("psql", [
    target.url!,
    "-X",
    "-Atc",
    `select id from provider_connections
    where organization_id = '${target.organizationId}' and not livemode and name = 'sandbox_a'`
  ], { encoding: "utf8" }).trim()

/** A card the vault holds, for the vaulted-payment phase (a test card: test mode takes no other). */
export const VAULTED_CARD = JSON.stringify({ type: "card", card: { number: "4242424242424242", exp_month: 12, exp_year: 2040, cvc: "123" } })

/** A card payment's body, as every phase sends it. */
export const PAYMENT = JSON.stringify({ amount: 1234, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })
