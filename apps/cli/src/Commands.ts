import { applicationFor, runService, type Settings } from "@orchestrator/application"
import { type ApiKeyKind, Organizations } from "@orchestrator/core"
import { HttpShell } from "@orchestrator/http"
import { Database, runMigrations } from "@orchestrator/sql"
import { WorkerMain } from "@orchestrator/worker"
import { Console, Effect, Layer } from "effect"

/**
 * `start` runs the API and the worker in one process (the embedded default); `http` and `worker`
 * run one role each, for deployments that scale them apart on PostgreSQL. Each shell also runs alone
 * (`apps/http/src/run.ts`, `apps/worker/src/run.ts`); this is the same, chosen by command.
 */
export const serve = (settings: Settings, roles: { readonly http: boolean; readonly worker: boolean }) =>
  runService(settings, Layer.mergeAll(roles.http ? HttpShell(settings) : Layer.empty, roles.worker ? WorkerMain : Layer.empty), { http: roles.http })

export const migrate = (settings: Settings) =>
  Effect.gen(function*() {
    const applied = yield* runMigrations
    yield* Console.log(
      applied.length === 0
        ? "The database is up to date."
        : applied.map(([id, name]) => `Applied migration ${id} (${name})`).join("\n")
    )
  }).pipe(Effect.provide(Database.clientLayer(settings.database)))

export const createOrganization = (settings: Settings, name: string) =>
  Effect.gen(function*() {
    const organization = yield* (yield* Organizations).create(name)
    yield* Console.log(`Created organization ${organization.id} (${organization.name})`)
    yield* Console.log(`Test mode has two sandbox connections, sandbox_a (default) and sandbox_b.`)
    yield* Console.log(`Next: bin/orchestrator keys create --org ${organization.id}`)
  }).pipe(Effect.provide(applicationFor(settings)))

export const createKey = (settings: Settings, organizationId: string, livemode: boolean, kind: ApiKeyKind = "secret") =>
  Effect.gen(function*() {
    const { key, secret } = yield* (yield* Organizations).createKey(organizationId, livemode, kind)
    const mode = livemode ? "live" : "test"
    if (kind === "publishable") {
      yield* Console.log(`Created ${mode} publishable key ${key.id} for ${organizationId}: it can only vault cards from the card form.`)
      // Public (it goes into your web pages), but stored hashed like a secret key: shown this once.
      yield* Console.log(`Publishable key (shown once, put it in your pages): ${secret}`)
      return
    }
    yield* Console.log(`Created ${mode} key ${key.id} for ${organizationId}.`)
    yield* Console.log(`Secret (shown once, store it now): ${secret}`)
  }).pipe(Effect.provide(applicationFor(settings)))

export const setRateLimits = (
  settings: Settings,
  organizationId: string,
  limits: { readonly live?: number | null; readonly test?: number | null }
) =>
  Effect.gen(function*() {
    const organization = yield* (yield* Organizations).setRateLimits(organizationId, limits)
    const shown = (own: number | null, fallback: number) => own === null ? `${fallback} (the default)` : String(own)
    yield* Console.log(
      `Rate limits of ${organization.id} per API key: live ${shown(organization.rate_limit_live, settings.rateLimits.live)}/s, ` +
        `test ${shown(organization.rate_limit_test, settings.rateLimits.test)}/s. Every process applies them within 10 s.`
    )
  }).pipe(Effect.provide(applicationFor(settings)))

export const revokeKey = (settings: Settings, keyId: string) =>
  Effect.gen(function*() {
    const key = yield* (yield* Organizations).revokeKey(keyId)
    yield* Console.log(`Revoked key ${key.id} (${key.hint}).`)
  }).pipe(Effect.provide(applicationFor(settings)))
