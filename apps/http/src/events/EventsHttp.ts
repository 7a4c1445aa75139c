import { HttpApiBuilder } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CurrentTenant, Events, pageRequestOf, toList } from "@orchestrator/core"
import { Effect } from "effect"

export const EventsHttpLive = HttpApiBuilder.group(Api, "events", (handlers) =>
  Effect.map(Events, (events) =>
    handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          events.list(tenant, {
            type: urlParams.type,
            createdGte: urlParams["created[gte]"],
            createdLte: urlParams["created[lte]"]
          }, pageRequestOf(urlParams)).pipe(
            Effect.map(toList),
            answering
          )))
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => events.retrieve(tenant, path.id).pipe(answering)))))
