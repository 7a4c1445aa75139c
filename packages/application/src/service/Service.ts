import { NodeRuntime } from "@effect/platform-node"
import { isFailing, KeyMaterial } from "@orchestrator/core"
import { RedisRateLimiterLive } from "@orchestrator/rate-limit-redis"
import { Database } from "@orchestrator/sql"
import { SharedCvcsRedis } from "@orchestrator/vault"
import { ConfigError, Console, Effect, Exit, Layer, Logger, Option, Redacted, RuntimeFlags, RuntimeFlagsPatch } from "effect"
import * as fs from "node:fs/promises"
import { applicationLayer, sqlStorage } from "../Application.js"
import { announce, ServiceLoggerLive } from "../logging/ServiceLogger.js"
import { processMetrics } from "../metrics/ProcessMetrics.js"
import type { Settings } from "../settings/Settings.js"
import { describeConfigError, SettingsConfig } from "../settings/Settings.js"
import { withTracing } from "../tracing/TracingLive.js"
import { bootstrapDevelopment } from "./DevBootstrap.js"
import { loadMasterSecret } from "./LocalSecrets.js"
import { stopWithParent } from "./ParentWatch.js"
import { vaultKeyProviderFor } from "./VaultKeyProvider.js"

/**
 * The application for `settings`: the core over its adapters (SQL storage on the configured database,
 * the connectors, the webhook sender, the keys from the master secret, the rate limiter). A service
 * (`announce`) says where its vault keys come from; a command-line tool's command prints only its answer.
 * On PostgreSQL it does not start without the vault's keys (`vaultKeyProviderFor`).
 */
export const applicationFor = (settings: Settings, options: { readonly announce?: boolean } = {}) =>
  // Scoped: a PKCS#11 token's session lives as long as the application.
  Layer.unwrapScoped(
    Effect.gen(function*() {
      yield* Effect.promise(() => fs.mkdir(settings.dataDir, { recursive: true }))
      // Making the embedded database is most of a first start: say so, not seconds of silence.
      const embedded = settings.database._tag === "Embedded" ? settings.database.dataDir : undefined
      if (embedded !== undefined && !(yield* Effect.promise(() => fs.access(embedded).then(() => true, () => false)))) {
        yield* announce(`Creating the embedded database in ${embedded} (first start, about 15 s)…`)
      }
      const secret = yield* loadMasterSecret(settings.encryptionKey, settings.dataDir)
      const vaultKeys = yield* vaultKeyProviderFor(settings, options)
      return applicationLayer({
        vault: {
          keys: vaultKeys.keys,
          fingerprintKey: vaultKeys.fingerprintKey,
          rawCardData: (organizationId) => settings.rawCardOrganizations.has(organizationId),
          // Every process must find the code of a card another one tokenized.
          ...Option.match(settings.redisUrl, { onNone: () => ({}), onSome: (url) => ({ sharedCvcs: SharedCvcsRedis(Redacted.value(url)) }) })
        },
        storage: sqlStorage(Database.layer(settings.database)),
        keys: KeyMaterial.fromMasterSecret(secret),
        publicUrl: settings.baseUrl,
        vaultOrigin: Option.getOrUndefined(settings.vaultOrigin),
        rateLimits: settings.rateLimits,
        privateAddresses: settings.privateAddresses,
        ...Option.match(settings.redisUrl, {
          onNone: () => ({}),
          onSome: (url) => ({ rateLimiter: RedisRateLimiterLive(Redacted.value(url)) })
        })
      })
    })
  )

/** What the application gives a shell: the core's services over its adapters. */
export type ApplicationServices = Layer.Layer.Success<ReturnType<typeof applicationFor>>

/**
 * Runs a shell (`roles`: the HTTP server, the worker's jobs, or both) over the application until the
 * process is told to stop: the development organization made on the embedded database, this process's
 * metrics port, and a stop with the command that started it when asked for. `serves` names what it
 * serves, for the line that says where.
 */
export const runService = <E>(settings: Settings, roles: Layer.Layer<never, E, ApplicationServices>, serves: { readonly http: boolean }) => {
  const bootstrap = Layer.scopedDiscard(
    Effect.gen(function*() {
      yield* Effect.logInfo(`Storage: ${Database.describe(settings.database)}`)
      // The development organization belongs to the embedded default; on PostgreSQL (production)
      // only when asked for with ORCHESTRATOR_DEV_API_KEY, so no test key is ever made or printed unasked.
      if (settings.database._tag === "Embedded" || Option.isSome(settings.devApiKey)) {
        yield* bootstrapDevelopment({ devApiKey: settings.devApiKey, dataDir: settings.dataDir })
      }
      if (serves.http) yield* announce(`API: ${settings.baseUrl}/v1 · docs: ${settings.baseUrl}/docs · dashboard: ${settings.baseUrl}/dashboard`)
    })
  )
  const parts = [roles, ...(settings.stopWithParent ? [stopWithParent] : []), processMetrics(settings)]
  // Said once the whole service has been released (the server drained, the worker stopped, the
  // database closed): merged layers are released side by side, so no finalizer of theirs could say it.
  return Layer.launch(Layer.mergeAll(bootstrap, ...parts).pipe(Layer.provide(applicationFor(settings, { announce: true })))).pipe(
    Effect.onExit((exit) => Exit.isInterrupted(exit) ? Effect.logInfo("Stopped cleanly.") : Effect.void)
  )
}

/**
 * A program of a process, run as every entry point runs one: its log one line per entry, its traces
 * when an OTLP endpoint collects them, a failure said in one line with a non-zero exit code (`exitCode`
 * picks it), and stopped on SIGTERM or SIGINT.
 */
export const runMain = <E>(
  program: Effect.Effect<void, E>,
  failure: { readonly describe: (error: E) => string; readonly exitCode: (error: E) => number }
) =>
  program.pipe(
    // Effect's own fiber metrics are not served (`PrometheusText.ts`): not counted either, so no fiber pays for them.
    Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.disable(RuntimeFlags.RuntimeMetrics)),
    // One line per entry, no formatting through util.format, written after each turn of the event loop.
    Effect.provide(ServiceLoggerLive),
    // Spans only when an OTLP endpoint collects them: each request, operation and SQL statement costs CPU otherwise.
    withTracing(process.env),
    Effect.catchAll((error) =>
      Effect.zipRight(
        Console.error(failure.describe(error)),
        Effect.sync(() => {
          process.exitCode = failure.exitCode(error)
        })
      )
    ),
    NodeRuntime.runMain({ disablePrettyLogger: true })
  )

/** Why a process could not start or stopped, in one line: a configuration's reason, a service's own message, the database's. */
export const describeFailure = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return `configuration error: ${describeConfigError(error)}`
  if (isFailing(error)) return error.answer.message
  const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : undefined
  if (tag === "SqlError" || tag === "MigrationError") {
    return `database error: ${(error as { message: string }).message} (${String((error as { cause?: unknown }).cause)})`
  }
  return `error: ${error instanceof Error ? error.message : String(error)}`
}

/**
 * A shell run on its own (`node --import tsx apps/http/src/run.ts`, or `pnpm --filter … start`),
 * configured from the environment alone, as the README's configuration table says: `roles`, made from
 * the settings, over the application.
 */
export const runFromEnvironment = <E>(roles: (settings: Settings) => Layer.Layer<never, E, ApplicationServices>, serves: { readonly http: boolean }) =>
  runMain(
    Effect.flatMap(SettingsConfig, (settings) => runService(settings, roles(settings), serves).pipe(Logger.withMinimumLogLevel(settings.logLevel))),
    { describe: describeFailure, exitCode: () => 1 }
  )
