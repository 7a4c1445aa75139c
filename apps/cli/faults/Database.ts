/**
 * The fault suite reads the database as an auditor would: plain SQL through `psql`, outside the
 * service, so nothing of the service's own code judges its own results.
 */
import { execFileSync } from "node:child_process"

export interface DatabaseTarget {
  readonly url: string
}

/** Rows of `query` as plain objects. */
export const rowsOf = <A = Record<string, unknown>>(target: DatabaseTarget, query: string): Array<A> => {
  const out = execFileSync(
    "psql",
    [target.url, "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", `select coalesce(json_agg(t), '[]') from (${query}) t`],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
  )
  return JSON.parse(out.trim()) as Array<A>
}

/** A fresh database beside the one in `DATABASE_URL`, for this run only. */
export const createDatabase = (baseUrl: string, name: string): DatabaseTarget => {
  const admin = new URL(baseUrl)
  admin.pathname = "/postgres"
  execFileSync("psql", [admin.toString(), "-X", "-qc", `create database "${name}"`], { stdio: "inherit" })
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return { url: url.toString() }
}

export const dropDatabase = (baseUrl: string, name: string) => {
  const admin = new URL(baseUrl)
  admin.pathname = "/postgres"
  execFileSync("psql", [admin.toString(), "-X", "-qc", `drop database if exists "${name}" with (force)`], { stdio: "inherit" })
}

/** Restarts the PostgreSQL server itself: every open connection of every process breaks. */
export const restartPostgres = () => {
  const cluster = execFileSync("sh", ["-c", "ls /etc/postgresql | head -n 1"], { encoding: "utf8" }).trim()
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", cluster, "main", "restart"], { stdio: "inherit" })
}
