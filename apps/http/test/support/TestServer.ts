import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import { Api } from "@orchestrator/api"
import { applicationLayer, sqlStorage } from "@orchestrator/application"
import { SandboxPagesLive } from "@orchestrator/connectors"
import {
  Jobs,
  KeyMaterial,
  Organizations,
  type PaymentsRepository,
  type PrivateAddresses,
  PublicUrls,
  type RateLimiter,
  type WebhookSender
} from "@orchestrator/core"
import { DashboardPagesLive } from "@orchestrator/dashboard"
import { freePort as freePortNumber } from "@orchestrator/testing/node"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { HttpRoutesLive } from "../../src/HttpRoutes.js"
import { HttpServerNodeLive, type HttpServerOptions } from "../../src/HttpServerNode.js"

const freePort = Effect.promise(freePortNumber)

/** The card vault's key provider a suite may give the server. */
type VaultKeys = NonNullable<NonNullable<Parameters<typeof applicationLayer>[0]["vault"]>["keys"]>

/**
 * The real server on a free port, over a test database, composed like `orchestrator start`: the
 * application first, the server on top, so stopping closes the server (draining requests) before the
 * database. `payments` may wrap the payments repository (fault injection) between services and storage.
 */
export const serverLayer = <E>(
  database: Layer.Layer<SqlClient.SqlClient, E>,
  options: {
    readonly payments?: Layer.Layer<PaymentsRepository, never, PaymentsRepository>
    readonly webhookSender?: Layer.Layer<WebhookSender>
    /** The operator's egress setting for test mode: `allow` unless a suite says otherwise. */
    readonly privateAddresses?: PrivateAddresses
    /** Collects every log line, at every level, instead of printing warnings. */
    readonly logs?: Array<string>
    /**
     * Requests per second per key. Suites fire requests faster than a merchant may, so the default
     * here is far above the service's; the rate-limit suite passes the service's own.
     */
    readonly rateLimits?: { readonly live: number; readonly test: number }
    /** The server's timeouts, shortened by the suites that wait for them. */
    readonly server?: Omit<HttpServerOptions, "port">
    /**
     * Failed authentications per client address. Every suite's requests come from 127.0.0.1 and many
     * try bad keys on purpose, so the default here is far above the service's; the throttle's suite
     * passes the service's own.
     */
    readonly failedAuthentications?: { readonly count: number; readonly periodMs: number }
    /** Where request rates are counted: in this process unless a suite shares them (Redis). */
    readonly rateLimiter?: Layer.Layer<RateLimiter>
    /** The vault's card form on an origin of its own, given the server's port (beside the API unless said). */
    readonly vaultOrigin?: (port: number) => string
    /** Which organizations may send raw card numbers (none unless a suite says). */
    readonly rawCardData?: (organizationId: string) => boolean
    /** Where the card vault's keys are (a PKCS#11 token, say); a key made for the suite unless said. */
    readonly vaultKeys?: VaultKeys
  } = {}
) =>
  Layer.unwrapEffect(Effect.map(freePort, (port) => {
    const ports = sqlStorage(database)
    const application = applicationLayer({
      storage: options.payments === undefined ? ports : Layer.provideMerge(options.payments, ports),
      keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(1)),
      publicUrl: `http://127.0.0.1:${port}`,
      ...(options.vaultOrigin === undefined ? {} : { vaultOrigin: options.vaultOrigin(port) }),
      rateLimits: options.rateLimits ?? { live: 1_000_000, test: 1_000_000 },
      // Fake PSPs and webhook receivers listen on this machine; suites of the policy itself say `deny`.
      privateAddresses: options.privateAddresses ?? "allow",
      failedAuthentications: options.failedAuthentications ?? { count: 1_000_000, periodMs: 1000 },
      ...(options.rateLimiter === undefined ? {} : { rateLimiter: options.rateLimiter }),
      vault: {
        ...(options.rawCardData === undefined ? {} : { rawCardData: options.rawCardData }),
        ...(options.vaultKeys === undefined ? {} : { keys: options.vaultKeys })
      },
      ...(options.webhookSender === undefined ? {} : { webhookSender: options.webhookSender })
    })
    const pages = Layer.merge(SandboxPagesLive, DashboardPagesLive)
    const server = HttpRoutesLive(pages, { traceProbes: options.server?.traceProbes === true }).pipe(
      Layer.provide(HttpServerNodeLive({ ...options.server, port }))
    )
    return Layer.mergeAll(server, FetchHttpClient.layer).pipe(
      Layer.provideMerge(application),
      // Request lines are noise in test output; warnings and errors still show.
      Layer.provide(
        options.logs === undefined
          ? Logger.minimumLogLevel(LogLevel.Warning)
          : Layer.merge(
            Logger.replace(
              Logger.defaultLogger,
              Logger.make(({ annotations, message }) => {
                options.logs!.push(`${JSON.stringify(message)} ${JSON.stringify([...annotations])}`)
              })
            ),
            Logger.minimumLogLevel(LogLevel.All)
          )
      )
    )
  }))

/** One pass of each named job, in order, as the worker would run them. */
export const runJobs = (...names: ReadonlyArray<string>) =>
  Effect.flatMap(Jobs, (jobs) =>
    Effect.forEach(names, (name) => {
      const job = jobs.find((candidate) => candidate.name === name)
      return job === undefined ? Effect.dieMessage(`no job named ${name}`) : job.run
    }))

/** The worker's part in a webhook's journey: hand new events to the fan-out, then deliver what is due. */
export const deliverWebhooks = runJobs("dispatch-events", "deliver-webhooks")

/** A fresh organization with a test key, a typed client for it, and the base URL for raw requests. */
export const merchant = (livemode = false) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const organization = yield* organizations.create(`Merchant ${Math.random().toString(36).slice(2)}`)
    const { secret } = yield* organizations.createKey(organization.id, livemode)
    const baseUrl = (yield* PublicUrls).base
    const client = yield* HttpApiClient.make(Api, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(secret))
    })
    return { organization, secret, client, baseUrl, tenant: { organizationId: organization.id, livemode } }
  })

export interface RawResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
}

/** A plain `fetch`, for what the typed client cannot send: malformed JSON, odd headers, huge bodies. */
export const raw = (url: string, init: RequestInit = {}) =>
  Effect.promise(async (): Promise<RawResponse> => {
    const response = await fetch(url, { redirect: "manual", ...init })
    const text = await response.text()
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json }
  })
