import { HttpApiClient, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import { Api } from "@orchestrator/api/Api"
import { ConnectorsLive } from "@orchestrator/connectors/ConnectorsLive"
import { PublicBaseUrl } from "@orchestrator/core/payments/AttemptPolicy"
import type { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { ServicesLayer } from "@orchestrator/core/Services"
import { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { HttpRoutesLive } from "@orchestrator/http/HttpRoutes"
import { StorageSql } from "@orchestrator/sql/StorageSql"
import { Effect, Layer } from "effect"

/** The server address as a base URL, once the test server listens on its random port. */
const PublicUrlFromServer = Layer.effect(
  PublicBaseUrl,
  Effect.map(HttpServer.HttpServer, (server) =>
    server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : "http://localhost")
)

/**
 * The real server on an ephemeral port, over a test database. `payments` may wrap the payments
 * repository (fault injection); it sits between the services and the real repository.
 */
export const serverLayer = <E>(
  database: Layer.Layer<SqlClient.SqlClient, E>,
  options: { readonly payments?: Layer.Layer<PaymentsRepository, never, PaymentsRepository> } = {}
) => {
  const ports = StorageSql.pipe(Layer.provideMerge(database))
  const storage = options.payments === undefined ? ports : Layer.provideMerge(options.payments, ports)
  return HttpRoutesLive.pipe(
    Layer.provideMerge(ServicesLayer),
    Layer.provideMerge(ConnectorsLive),
    Layer.provideMerge(storage),
    Layer.provideMerge(KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(1))),
    Layer.provideMerge(PublicUrlFromServer),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )
}

/** A fresh organization with a test key, a typed client for it, and the base URL for raw requests. */
export const merchant = (livemode = false) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const organization = yield* organizations.create(`Merchant ${Math.random().toString(36).slice(2)}`)
    const { secret } = yield* organizations.createKey(organization.id, livemode)
    const client = yield* HttpApiClient.make(Api, {
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(secret))
    })
    const baseUrl = yield* PublicBaseUrl
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
