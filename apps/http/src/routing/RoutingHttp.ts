import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, RoutingApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, RoutingRules, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const RoutingHttpLive = HttpApiBuilder.group(Api, "routing", (handlers) =>
  Effect.map(RoutingRules, (rules) => {
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(RoutingApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, () =>
            rules.create(tenant, payload))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          rules.list(tenant, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering)))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(rules.retrieve(tenant, path.id))))
      .handle("update", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(RoutingApi.endpoints.update, { key: headers["idempotency-key"], path, payload }, {}, () =>
            rules.update(tenant, path.id, payload))))
      .handle("delete", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(rules.remove(tenant, path.id)).pipe(
            Effect.as({ object: "routing_rule" as const, id: path.id, deleted: true as const })
          )))
      .handle("evaluate", ({ payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          rules.explain(tenant, payload)))
  }))
