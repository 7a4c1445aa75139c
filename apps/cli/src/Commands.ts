import { applicationLayer, sqlStorage } from "@orchestrator/application"
import { SandboxPagesLive } from "@orchestrator/connectors"
import { KeyMaterial, Organizations } from "@orchestrator/core"
import { DashboardPagesLive } from "@orchestrator/dashboard"
import { HttpMain } from "@orchestrator/http"
import { RedisRateLimiterLive } from "@orchestrator/rate-limit-redis"
import { Database, runMigrations } from "@orchestrator/sql"
import { WorkerMain } from "@orchestrator/worker"
import { Console, Effect, Exit, Layer, Option, Redacted } from "effect"
import * as fs from "node:fs/promises"
import { bootstrapDevelopment } from "./DevBootstrap.js"
import { loadMasterSecret } from "./LocalSecrets.js"
import { stopWithParent } from "./ParentWatch.js"
import { processMetrics } from "./ProcessMetrics.js"
import { announce } from "./ServiceLogger.js"
import type { Settings } from "./Settings.js"

const application = (settings: Settings) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      yield* Effect.promise(() => fs.mkdir(settings.dataDir, { recursive: true }))
      // Making the embedded database is most of a first start: say so, not seconds of silence.
      const embedded = settings.database._tag === "Embedded" ? settings.database.dataDir : undefined
      if (embedded !== undefined && !(yield* Effect.promise(() => fs.access(embedded).then(() => true, () => false)))) {
        yield* announce(`Creating the embedded database in ${embedded} (first start, about 15 s)…`)
      }
      const secret = yield* loadMasterSecret(settings.encryptionKey, settings.dataDir)
      return applicationLayer({
        storage: sqlStorage(Database.layer(settings.database)),
        keys: KeyMaterial.fromMasterSecret(secret),
        publicUrl: settings.baseUrl,
        rateLimits: settings.rateLimits,
        privateAddresses: settings.privateAddresses,
        ...Option.match(settings.redisUrl, {
          onNone: () => ({}),
          onSome: (url) => ({ rateLimiter: RedisRateLimiterLive(Redacted.value(url)) })
        })
      })
    })
  )

/**
 * `start` runs the API and the worker in one process (the embedded default); `http` and `worker`
 * run one role each, for deployments that scale them apart on PostgreSQL.
 */
export const serve = (settings: Settings, roles: { readonly http: boolean; readonly worker: boolean }) => {
  // The composition root mounts the dashboard and the sandbox PSP's pages beside the API.
  const http = HttpMain({
    port: settings.port,
    ...(settings.host === undefined ? {} : { host: settings.host }),
    trustedProxies: settings.trustedProxies,
    trustIncomingTraces: settings.trustIncomingTraces,
    pages: Layer.merge(SandboxPagesLive, DashboardPagesLive)
  })
  const parts = [
    ...(roles.http ? [http] : []),
    ...(roles.worker ? [WorkerMain] : []),
    ...(settings.stopWithParent ? [stopWithParent] : []),
    processMetrics(settings)
  ]
  const bootstrap = Layer.scopedDiscard(
    Effect.gen(function*() {
      yield* Effect.logInfo(`Storage: ${Database.describe(settings.database)}`)
      // The development organization belongs to the embedded default; on PostgreSQL (production)
      // only when asked for with ORCHESTRATOR_DEV_API_KEY, so no test key is ever made or printed unasked.
      if (settings.database._tag === "Embedded" || Option.isSome(settings.devApiKey)) {
        yield* bootstrapDevelopment({ devApiKey: settings.devApiKey, dataDir: settings.dataDir })
      }
      if (roles.http) yield* announce(`API: ${settings.baseUrl}/v1 · docs: ${settings.baseUrl}/docs · dashboard: ${settings.baseUrl}/dashboard`)
    })
  )
  // Said once the whole service has been released (the server drained, the worker stopped, the
  // database closed): merged layers are released side by side, so no finalizer of theirs could say it.
  return Layer.launch(Layer.mergeAll(bootstrap, ...parts).pipe(Layer.provide(application(settings)))).pipe(
    Effect.onExit((exit) => Exit.isInterrupted(exit) ? Effect.logInfo("Stopped cleanly.") : Effect.void)
  )
}

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
  }).pipe(Effect.provide(application(settings)))

export const createKey = (settings: Settings, organizationId: string, livemode: boolean) =>
  Effect.gen(function*() {
    const { key, secret } = yield* (yield* Organizations).createKey(organizationId, livemode)
    yield* Console.log(`Created ${livemode ? "live" : "test"} key ${key.id} for ${organizationId}.`)
    yield* Console.log(`Secret (shown once, store it now): ${secret}`)
  }).pipe(Effect.provide(application(settings)))

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
  }).pipe(Effect.provide(application(settings)))

export const revokeKey = (settings: Settings, keyId: string) =>
  Effect.gen(function*() {
    const key = yield* (yield* Organizations).revokeKey(keyId)
    yield* Console.log(`Revoked key ${key.id} (${key.hint}).`)
  }).pipe(Effect.provide(application(settings)))
