import { HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { TimeFilter } from "@orchestrator/core/domain/Timestamp"
import { Event, EVENT_TYPES } from "@orchestrator/core/events/Event"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { EventNotFound } from "./EventErrors.js"

export const EventList = ListOf(Event).annotations({ identifier: "EventList" })

export const EventListQuery = ListQuery({
  type: Schema.optional(Schema.Literal(...EVENT_TYPES)),
  "created[gte]": Schema.optional(TimeFilter),
  "created[lte]": Schema.optional(TimeFilter)
})

export class EventsApi extends HttpApiGroup.make("events")
  .add(
    listPage("/events", EventListQuery, EventList, "List events of the last 30 days, newest first")
      .annotate(OpenApi.Description, "Filter by `type` and by creation time, `created[gte]` and `created[lte]` (ISO 8601).")
  )
  .add(
    retrieveById("/events/:id", Event, EventNotFound, "Retrieve an event")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Events")
{}
