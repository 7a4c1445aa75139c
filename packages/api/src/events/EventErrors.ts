import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/events/Events"
import { ApiError, failWith } from "../ApiError.js"

export class EventNotFound extends ApiError<EventNotFound>()("EventNotFound", {
  status: 404,
  type: "invalid_request_error",
  codes: ["resource_missing"],
  description: "No event with this id for this key (events are kept 30 days)"
}) {
  readonly _tag = "EventNotFound" as const
}

export const eventFailures = {
  EventNotFound: (error: Domain.EventNotFound) => failWith(EventNotFound, { message: `No such event: '${echoed(error.id)}'`, param: "id" })
}
