import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/events/Events"
import { apiErrors, failWith } from "../ApiError.js"

export const EventErrors = apiErrors({
  EventNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No event with this id for this key (events are kept 30 days)"
  }
})

export const eventFailures = {
  EventNotFound: (error: Domain.EventNotFound) => failWith(EventErrors.EventNotFound, { message: `No such event: '${echoed(error.id)}'`, param: "id" })
}
