import { HttpApiGroup, OpenApi } from "@effect/platform"
import { Event, EVENT_TYPES, EventNotFound, ListOf, optionalField, TimeFilter } from "@orchestrator/core"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { listPage, ListQuery, retrieveById } from "../Endpoints.js"

export const EventList = ListOf(Event).annotations({ identifier: "EventList" })

export const EventListQuery = ListQuery({
  type: optionalField(Schema.Literal(...EVENT_TYPES), "Only events of this type, e.g. `payment.succeeded`."),
  "created[gte]": optionalField(TimeFilter, "Only events created at or after this time (ISO 8601)."),
  "created[lte]": optionalField(TimeFilter, "Only events created at or before this time (ISO 8601).")
})

export class EventsApi extends HttpApiGroup.make("events")
  .add(
    listPage("/events", EventListQuery, EventList, "List events of the last 30 days, newest first")
      .annotate(
        OpenApi.Description,
        "Every event of this key's mode from the last 30 days, newest first: what webhooks delivered, or would " +
          "have, to catch up after downtime. Filter by `type` and by creation time, `created[gte]` and " +
          "`created[lte]` (ISO 8601)."
      )
  )
  .add(
    retrieveById("/events/:id", Event, EventNotFound, "Retrieve an event")
      .annotate(
        OpenApi.Description,
        "One event by its id (the `Service-Event-Id` of a delivery), with the object as it was when it happened."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Events")
  .annotate(
    OpenApi.Description,
    "An event records one change of a payment, refund, subscription, invoice, checkout session or provider " +
      "connection, with the object as it was at that moment (`data.object`). Events are written in the same " +
      "transaction as the change, kept 30 days, and delivered to your webhook endpoints; the catalogue of types " +
      "and payloads is under Webhooks."
  )
{}
