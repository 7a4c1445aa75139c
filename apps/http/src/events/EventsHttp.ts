import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { listFailures } from "@orchestrator/api/CommonErrors"
import { eventFailures } from "@orchestrator/api/events/EventErrors"
import { pageRequestOf, toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Events } from "@orchestrator/core/events/Events"
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
            answeringWith(listFailures)
          )))
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => events.retrieve(tenant, path.id).pipe(answeringWith(eventFailures))))))
