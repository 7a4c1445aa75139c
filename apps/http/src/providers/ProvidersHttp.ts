import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { answering, Api, ProvidersApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, ProviderConnections, ProviderWebhooks, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const ProvidersHttpLive = HttpApiBuilder.group(Api, "providers", (handlers) =>
  Effect.map(ProviderConnections, (connections) => {
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(ProvidersApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, () =>
            connections.create(tenant, payload))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          connections.list(tenant, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering)))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(connections.retrieve(tenant, path.id))))
      .handle("update", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(ProvidersApi.endpoints.update, { key: headers["idempotency-key"], path, payload }, {}, () =>
            connections.update(tenant, path.id, payload))))
      .handle("delete", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(connections.remove(tenant, path.id)).pipe(
            Effect.as({ object: "provider_connection" as const, id: path.id, deleted: true as const })
          )))
  }))

/** The PSPs' webhooks: the exact bytes, unparsed, go to the connector that verifies them. */
export const ProviderWebhooksHttpLive = HttpApiBuilder.group(
  Api,
  "providerWebhooks",
  (handlers) =>
    Effect.map(ProviderWebhooks, (webhooks) =>
      handlers.handleRaw("receive", ({ path, request }) =>
        Effect.gen(function*() {
          const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
          const { acknowledgement, ...receipt } = yield* webhooks.receive(path.connection_id, { body, headers: request.headers })
          // A PSP that reads the answer (Adyen wants `[accepted]`) gets its own; the others a JSON receipt.
          return acknowledgement === undefined ? receipt : HttpServerResponse.text(acknowledgement)
        }).pipe(answering)))
)
