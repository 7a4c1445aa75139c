import { isHttpUrl, parseSecretKey, type PrivateAddresses } from "@orchestrator/core"
import type { DatabaseConfig } from "@orchestrator/sql"
import type { Pkcs11Settings } from "@orchestrator/vault"
import { Config, ConfigError, Either, LogLevel, Option, Redacted } from "effect"
import * as path from "node:path"
import { parseTrustedProxies, type TrustedProxyList } from "./TrustedProxies.js"
import { VaultPkcs11Config } from "./VaultPkcs11Settings.js"

/** Everything the service reads from its environment. */
export interface Settings {
  readonly port: number
  /**
   * The address the API listens on: `HOST`, else 127.0.0.1 on the embedded database (a developer's
   * machine, with a development key printed on the terminal), else every interface.
   */
  readonly host: string | undefined
  readonly database: DatabaseConfig
  readonly dataDir: string
  readonly devApiKey: Option.Option<Redacted.Redacted>
  readonly encryptionKey: Option.Option<Redacted.Redacted>
  readonly baseUrl: string
  readonly logLevel: LogLevel.LogLevel
  /** The card vault's keys (`ORCHESTRATOR_VAULT_KEYS`, or the file `ORCHESTRATOR_VAULT_KEYS_FILE`); else generated in `dataDir`. */
  readonly vaultKeys: Option.Option<Redacted.Redacted>
  readonly vaultKeysFile: Option.Option<string>
  /** The vault's keys in a PKCS#11 token instead (`ORCHESTRATOR_VAULT_PKCS11_*`); when set, the key provider. */
  readonly vaultPkcs11: Option.Option<Pkcs11Settings>
  /** The key of the cards' fingerprints (`ORCHESTRATOR_VAULT_FINGERPRINT_KEY`); else generated in `dataDir` (embedded start only). */
  readonly vaultFingerprintKey: Option.Option<Redacted.Redacted>
  /** Organizations that may send raw card numbers to `POST /v1/payment_methods` (`ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS`). */
  readonly rawCardOrganizations: ReadonlySet<string>
  /** The origin of the vault's card form, apart from the API's (`ORCHESTRATOR_VAULT_ORIGIN`); none: beside it. */
  readonly vaultOrigin: Option.Option<string>
  /** Where every process counts request rates; without it, each counts its own. */
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Requests per second per API key where an organization sets none. */
  readonly rateLimits: { readonly live: number; readonly test: number }
  /** How many processes `http` runs on this machine, sharing its port (Node uses one core each). */
  readonly httpProcesses: number
  /**
   * Whether test-mode calls (webhook deliveries, PSP `base_url`s) may reach private, loopback and
   * link-local addresses; live ones never do.
   */
  readonly privateAddresses: PrivateAddresses
  /**
   * The operator's own reverse proxies, by address or CIDR: X-Forwarded-For is read only from them.
   * None (the default): the header is ignored and the socket's peer is the client.
   */
  readonly trustedProxies: TrustedProxyList
  /** Whether a client's `traceparent` (or B3) header may parent the request's trace; else a trace starts here. */
  readonly trustIncomingTraces: boolean
  /**
   * Whether probes (`/healthz`, `/readyz`, a scrape of `/metrics` and the SQL it reads) are traced
   * (`ORCHESTRATOR_TRACE_PROBES`): not by default, as they come every few seconds and say nothing.
   */
  readonly traceProbes: boolean
  /** Set by `pnpm start`: stop when the command that started the service is gone (see ParentWatch). */
  readonly stopWithParent: boolean
  /** Where this process serves `GET /metrics` (Prometheus), apart from the API; none unless a port is set. */
  readonly metrics: Option.Option<{ readonly port: number; readonly host: string }>
}

const rateLimit = (name: string, fallback: number) =>
  check(
    Config.integer(name).pipe(Config.withDefault(fallback)),
    (value) => value < 1 ? `${name} must be a whole number of requests per second, at least 1` : undefined
  )

const nonEmpty = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).trim() !== ""))
  )

const check = <A>(config: Config.Config<A>, valid: (value: A) => string | undefined) =>
  Config.mapOrFail(config, (value) => {
    const problem = valid(value)
    return problem === undefined ? Either.right(value) : Either.left(ConfigError.InvalidData([], problem))
  })

export const SettingsConfig: Config.Config<Settings> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: check(
    Config.option(Config.string("HOST")),
    (host) =>
      Option.isSome(host) && !/^[A-Za-z0-9.:_-]{1,253}$/.test(host.value) ? "HOST must be an address or a host name, e.g. 127.0.0.1 or 0.0.0.0" : undefined
  ),
  databaseUrl: check(nonEmpty("DATABASE_URL"), (url) =>
    Option.isSome(url) && !/^postgres(ql)?:\/\//.test(Redacted.value(url.value))
      ? "DATABASE_URL must be a postgres:// or postgresql:// connection string"
      : undefined),
  dataDir: Config.string("ORCHESTRATOR_DATA_DIR").pipe(Config.withDefault("./.data")),
  devApiKey: check(
    nonEmpty("ORCHESTRATOR_DEV_API_KEY"),
    (key) =>
      Option.isSome(key) && Option.getOrUndefined(parseSecretKey(Redacted.value(key.value)))?.livemode !== false
        ? "ORCHESTRATOR_DEV_API_KEY must be a test key: sk_test_ followed by 32 to 128 letters and digits"
        : undefined
  ),
  encryptionKey: check(nonEmpty("ORCHESTRATOR_ENCRYPTION_KEY"), (key) =>
    Option.isSome(key) && !/^[0-9a-fA-F]{64}$/.test(Redacted.value(key.value))
      ? "ORCHESTRATOR_ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes), e.g. from `openssl rand -hex 32`"
      : undefined),
  baseUrl: check(
    Config.option(Config.string("ORCHESTRATOR_BASE_URL")),
    (url) => Option.isSome(url) && !isHttpUrl(url.value) ? "ORCHESTRATOR_BASE_URL must be an http:// or https:// URL" : undefined
  ),
  logLevel: Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  vaultKeys: nonEmpty("ORCHESTRATOR_VAULT_KEYS"),
  vaultKeysFile: Config.option(Config.string("ORCHESTRATOR_VAULT_KEYS_FILE")),
  vaultPkcs11: VaultPkcs11Config,
  vaultFingerprintKey: check(
    nonEmpty("ORCHESTRATOR_VAULT_FINGERPRINT_KEY"),
    (key) =>
      Option.isSome(key) && Buffer.from(Redacted.value(key.value).trim(), "base64").length !== 32
        ? "ORCHESTRATOR_VAULT_FINGERPRINT_KEY must be 32 bytes of base64, e.g. from `openssl rand -base64 32`"
        : undefined
  ),
  rawCardOrganizations: Config.string("ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS").pipe(Config.withDefault("")),
  vaultOrigin: check(
    Config.option(Config.string("ORCHESTRATOR_VAULT_ORIGIN")),
    (origin) =>
      Option.isSome(origin) && !(isHttpUrl(origin.value) && new URL(origin.value).origin === origin.value.replace(/\/+$/, ""))
        ? "ORCHESTRATOR_VAULT_ORIGIN must be an origin only, e.g. https://vault.example.com"
        : undefined
  ),
  redisUrl: check(nonEmpty("REDIS_URL"), (url) =>
    Option.isSome(url) && !/^rediss?:\/\//.test(Redacted.value(url.value))
      ? "REDIS_URL must be a redis:// or rediss:// URL"
      : undefined),
  rateLimitLive: rateLimit("ORCHESTRATOR_RATE_LIMIT_LIVE", 100),
  rateLimitTest: rateLimit("ORCHESTRATOR_RATE_LIMIT_TEST", 25),
  httpProcesses: check(
    Config.integer("ORCHESTRATOR_HTTP_PROCESSES").pipe(Config.withDefault(1)),
    (count) => count < 1 || count > 64 ? "ORCHESTRATOR_HTTP_PROCESSES must be between 1 and 64" : undefined
  ),
  privateAddresses: Config.option(Config.literal("allow", "deny")("ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES")),
  /** Deprecated: `true` is `ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES=deny`, `false` is `allow`. */
  webhooksPublicOnly: Config.option(Config.boolean("ORCHESTRATOR_WEBHOOKS_PUBLIC_ONLY")),
  trustedProxies: Config.mapOrFail(Config.string("ORCHESTRATOR_TRUSTED_PROXIES").pipe(Config.withDefault("")), (text) => {
    const parsed = parseTrustedProxies(text)
    return typeof parsed === "string" ? Either.left(ConfigError.InvalidData([], parsed)) : Either.right(parsed)
  }),
  trustIncomingTraces: Config.boolean("ORCHESTRATOR_TRUST_INCOMING_TRACES").pipe(Config.withDefault(false)),
  traceProbes: Config.boolean("ORCHESTRATOR_TRACE_PROBES").pipe(Config.withDefault(false)),
  stopWithParent: Config.boolean("ORCHESTRATOR_STOP_WITH_PARENT").pipe(Config.withDefault(false)),
  metricsPort: Config.option(Config.port("ORCHESTRATOR_METRICS_PORT")),
  metricsHost: Config.string("ORCHESTRATOR_METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
}).pipe(
  Config.map((raw): Settings => ({
    port: raw.port,
    host: Option.getOrElse(raw.host, () => Option.isSome(raw.databaseUrl) ? undefined : "127.0.0.1"),
    database: Option.match(raw.databaseUrl, {
      onNone: () => ({ _tag: "Embedded", dataDir: path.resolve(raw.dataDir, "postgres") }),
      onSome: (url) => ({ _tag: "Postgres", url })
    }),
    dataDir: path.resolve(raw.dataDir),
    devApiKey: raw.devApiKey,
    encryptionKey: raw.encryptionKey,
    baseUrl: Option.getOrElse(raw.baseUrl, () => `http://localhost:${raw.port}`).replace(/\/+$/, ""),
    logLevel: raw.logLevel,
    redisUrl: raw.redisUrl,
    vaultKeys: raw.vaultKeys,
    vaultKeysFile: raw.vaultKeysFile,
    vaultPkcs11: raw.vaultPkcs11,
    vaultOrigin: Option.map(raw.vaultOrigin, (origin) => origin.replace(/\/+$/, "")),
    vaultFingerprintKey: raw.vaultFingerprintKey,
    rawCardOrganizations: new Set(raw.rawCardOrganizations.split(",").map((id) => id.trim()).filter((id) => id !== "")),
    rateLimits: { live: raw.rateLimitLive, test: raw.rateLimitTest },
    httpProcesses: raw.httpProcesses,
    // Closed by default on PostgreSQL (a deployment others may hold test keys of), open for the
    // embedded start (a developer's own machine, with local fakes and receivers).
    privateAddresses: Option.getOrElse(
      Option.orElse(raw.privateAddresses, () => Option.map(raw.webhooksPublicOnly, (publicOnly) => publicOnly ? "deny" as const : "allow" as const)),
      () => Option.isSome(raw.databaseUrl) ? "deny" as const : "allow" as const
    ),
    trustedProxies: raw.trustedProxies,
    trustIncomingTraces: raw.trustIncomingTraces,
    traceProbes: raw.traceProbes,
    stopWithParent: raw.stopWithParent,
    metrics: Option.map(raw.metricsPort, (port) => ({ port, host: raw.metricsHost }))
  }))
)

/** A configuration error as the one line printed before exiting. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  const reasons: Array<string> = []
  const walk = (current: ConfigError.ConfigError): void => {
    switch (current._op) {
      case "And":
      case "Or":
        walk(current.left)
        walk(current.right)
        return
      case "InvalidData":
      case "MissingData":
      case "SourceUnavailable":
      case "Unsupported":
        reasons.push(current.path.length > 0 ? `${current.path.join(".")}: ${current.message}` : current.message)
    }
  }
  walk(error)
  return reasons.join("; ")
}
