import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, WebhooksApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, toList, WebhookDeliveries, WebhookEndpoints } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

const endpoints = WebhooksApi.endpoints

export const WebhooksHttpLive = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhookEndpoints = yield* WebhookEndpoints
    const deliveries = yield* WebhookDeliveries
    return handlers
      .handle("createEndpoint", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.createEndpoint, { key: headers["idempotency-key"], payload }, { sealed: true }, () =>
            webhookEndpoints.create(tenant, payload))))
      .handle("listEndpoints", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          webhookEndpoints.list(tenant, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering)))
      .handle("retrieveEndpoint", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(webhookEndpoints.retrieve(tenant, path.id))))
      .handle("updateEndpoint", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.updateEndpoint, { key: headers["idempotency-key"], path, payload }, {}, () =>
            webhookEndpoints.update(tenant, path.id, payload))))
      .handle("deleteEndpoint", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(webhookEndpoints.remove(tenant, path.id)).pipe(
            Effect.as({ object: "webhook_endpoint" as const, id: path.id, deleted: true as const })
          )))
      .handle("rotateSecret", ({ headers, path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.rotateSecret, { key: headers["idempotency-key"], path, payload: undefined }, { sealed: true }, () =>
            webhookEndpoints.rotateSecret(tenant, path.id))))
      .handle("listDeliveries", ({ urlParams: { limit, starting_after, ...filter } }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          deliveries.list(tenant, filter, pageRequestOf({ limit, starting_after })).pipe(
            Effect.map(toList),
            answering
          )))
      .handle("retrieveDelivery", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(deliveries.retrieve(tenant, path.id))))
      .handle("resendDelivery", ({ headers, path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.resendDelivery, { key: headers["idempotency-key"], path, payload: undefined }, {}, () =>
            deliveries.resend(tenant, path.id))))
      .handle("resendDeliveries", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.resendDeliveries, { key: headers["idempotency-key"], payload }, {}, () =>
            deliveries.resendMatching(tenant, payload ?? {}).pipe(
              Effect.map((queued) => ({ object: "webhook_delivery_resend" as const, queued }))
            ))))
  }))
