import { describeFailure, runMain, SettingsConfig } from "@orchestrator/application"
import { OrganizationNameInvalid, OrganizationNameTaken } from "@orchestrator/core"
import { Console, Effect, Logger } from "effect"
import cluster from "node:cluster"
import { parseArgs } from "node:util"
import { createKey, createOrganization, migrate, revokeKey, serve, setRateLimits } from "./Commands.js"
import { superviseHttpProcesses, toleratePrimaryGone } from "./HttpProcesses.js"
import { ConnectorExists, ConnectorNameInvalid, ConnectorTemplateMissing, newConnector, REPOSITORY_ROOT } from "./NewConnector.js"
import { pkcs11Keygen } from "./VaultCommands.js"

const USAGE = `Usage: orchestrator <command>

  start                          API and worker in one process (the default)
  http                           the API only
  worker                         the worker only
  migrate                        apply database migrations and exit
  org create --name <name>       create an organization (with test sandbox connections); the name
                                 is trimmed, 1 to 100 characters, no control characters, unique
  keys create --org <org_id> [--live] [--publishable]
                                 create a secret API key (pk_…: a publishable key, which can
                                 only vault cards from the card form); it is printed once
  keys revoke <key_id>           revoke a key
  org rate-limit --org <org_id> [--live-rps <n|default>] [--test-rps <n|default>]
                                 requests per second per API key for one organization
  vault pkcs11-keygen --version <n>
                                 make the card vault's key of version n inside the PKCS#11 token
                                 (ORCHESTRATOR_VAULT_PKCS11_*); restart the service to use it
  dev new-connector <name> [--root <dir>]
                                 write a new PSP connector's folder, fake and contract test from the
                                 connector kit's template (into this repository, or <dir>)

Configuration comes from the environment: PORT, DATABASE_URL, ORCHESTRATOR_DATA_DIR,
HOST (default 127.0.0.1 on the embedded
database, every interface with DATABASE_URL), ORCHESTRATOR_DEV_API_KEY, ORCHESTRATOR_ENCRYPTION_KEY, ORCHESTRATOR_BASE_URL, LOG_LEVEL,
ORCHESTRATOR_VAULT_KEYS or ORCHESTRATOR_VAULT_KEYS_FILE and ORCHESTRATOR_VAULT_FINGERPRINT_KEY (the card
vault's keys and its fingerprints' key; required with DATABASE_URL), or instead of the first two
ORCHESTRATOR_VAULT_PKCS11_MODULE, _TOKEN, _PIN and _KEY_LABEL (the keys in an HSM's PKCS#11 token),
REDIS_URL (rate limits shared by every process), ORCHESTRATOR_RATE_LIMIT_LIVE (default 100),
ORCHESTRATOR_RATE_LIMIT_TEST (default 25), ORCHESTRATOR_HTTP_PROCESSES (http on several cores),
ORCHESTRATOR_TRUSTED_PROXIES (addresses or CIDRs of your reverse proxies, whose X-Forwarded-For is
read; none by default), ORCHESTRATOR_TRUST_INCOMING_TRACES (true: a client's traceparent is kept),
ORCHESTRATOR_VAULT_ORIGIN (the card form's own origin), ORCHESTRATOR_METRICS_PORT and ORCHESTRATOR_METRICS_HOST (this process's GET /metrics for Prometheus,
default host 127.0.0.1; none unless the port is set).`

class UsageError {
  readonly _tag = "UsageError"
  constructor(readonly message: string) {}
}

/** What the operator typed is wrong (exit code 2, like a usage error), said in one line without the usage. */
const isInputError = (error: unknown) =>
  error instanceof OrganizationNameInvalid || error instanceof OrganizationNameTaken ||
  error instanceof ConnectorNameInvalid || error instanceof ConnectorExists

const program = Effect.gen(function*() {
  const { positionals, values } = yield* Effect.try({
    try: () =>
      parseArgs({
        args: process.argv.slice(2),
        allowPositionals: true,
        options: {
          name: { type: "string" },
          org: { type: "string" },
          live: { type: "boolean" },
          publishable: { type: "boolean" },
          "live-rps": { type: "string" },
          "test-rps": { type: "string" },
          root: { type: "string" },
          version: { type: "string" },
          help: { type: "boolean" }
        }
      }),
    catch: (error) => new UsageError(error instanceof Error ? error.message : String(error))
  })
  const [command = "start", subcommand, argument] = positionals
  if (values.help === true || command === "help") return yield* Console.log(USAGE)
  // A developer's command: it needs no configuration of the service.
  if (command === "dev" && subcommand === "new-connector") {
    if (argument === undefined) return yield* Effect.fail(new UsageError("dev new-connector needs a name, e.g. dev new-connector acmepay"))
    const made = yield* newConnector({ name: argument, sourceRoot: REPOSITORY_ROOT, targetRoot: values.root ?? REPOSITORY_ROOT })
    return yield* Console.log(`Created the ${made.name} connector:\n${made.files.map((file) => `  ${file}`).join("\n")}\n\n${made.nextSteps}`)
  }
  const settings = yield* SettingsConfig
  const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Logger.withMinimumLogLevel(settings.logLevel)) as Effect.Effect<A, E, R>
  switch (`${command} ${subcommand ?? ""}`.trim()) {
    case "start":
      return yield* run(serve(settings, { http: true, worker: true }))
    case "http":
      if (settings.httpProcesses > 1) {
        if (settings.database._tag === "Embedded") {
          return yield* Effect.fail(
            new UsageError("ORCHESTRATOR_HTTP_PROCESSES above 1 needs DATABASE_URL: the embedded database has one process")
          )
        }
        if (cluster.isPrimary) return yield* superviseHttpProcesses(settings.httpProcesses)
        toleratePrimaryGone()
      }
      return yield* run(serve(settings, { http: true, worker: false }))
    case "worker":
      return yield* run(serve(settings, { http: false, worker: true }))
    case "migrate":
      return yield* run(migrate(settings))
    case "org create":
      if (values.name === undefined) return yield* Effect.fail(new UsageError("org create needs --name <name>"))
      return yield* run(createOrganization(settings, values.name))
    case "keys create":
      if (values.org === undefined) return yield* Effect.fail(new UsageError("keys create needs --org <org_id>"))
      return yield* run(createKey(settings, values.org, values.live === true, values.publishable === true ? "publishable" : "secret"))
    case "org rate-limit": {
      if (values.org === undefined) return yield* Effect.fail(new UsageError("org rate-limit needs --org <org_id>"))
      const limitOf = (name: string, value: string | undefined) =>
        value === undefined
          ? Effect.succeed(undefined)
          : value === "default"
          ? Effect.succeed(null)
          : /^[1-9][0-9]{0,5}$/.test(value)
          ? Effect.succeed(Number(value))
          : Effect.fail(new UsageError(`--${name} takes a number of requests per second (1 to 999999) or 'default'`))
      const live = yield* limitOf("live-rps", values["live-rps"])
      const test = yield* limitOf("test-rps", values["test-rps"])
      return yield* run(setRateLimits(settings, values.org, {
        ...(live === undefined ? {} : { live }),
        ...(test === undefined ? {} : { test })
      }))
    }
    case "vault pkcs11-keygen": {
      const version = values.version ?? ""
      if (!/^[1-9][0-9]{0,5}$/.test(version)) return yield* Effect.fail(new UsageError("vault pkcs11-keygen needs --version <n> (1 to 999999)"))
      return yield* run(pkcs11Keygen(settings, Number(version)))
    }
    case "keys revoke":
      if (argument === undefined) return yield* Effect.fail(new UsageError("keys revoke needs a key id"))
      return yield* run(revokeKey(settings, argument))
    default:
      return yield* Effect.fail(new UsageError(`unknown command '${positionals.join(" ")}'`))
  }
})

/** Failures end with one line saying what is wrong, and a non-zero exit code (2 for what the operator typed). */
const describeCliFailure = (error: unknown): string => {
  if (error instanceof UsageError) return `${error.message}\n\n${USAGE}`
  if (error instanceof ConnectorNameInvalid) {
    return `invalid connector name ${JSON.stringify(error.name)}: lower-case letters and digits, a letter first, 2 to 30 characters`
  }
  if (error instanceof ConnectorExists) return `a connector named '${error.name}' already exists (${error.path})`
  if (error instanceof ConnectorTemplateMissing) {
    return `the connector kit's template is not here (${error.path}): run the command from a clone of the repository`
  }
  return describeFailure(error)
}

runMain(program, {
  describe: describeCliFailure,
  exitCode: (error) => error instanceof UsageError || isInputError(error) ? 2 : 1
})
