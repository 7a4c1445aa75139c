import { apiErrors, noSuch, notFound } from "../ApiError.js"

export const EventErrors = apiErrors({
  EventNotFound: notFound("event", "this key (events are kept 30 days)")
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { EventNotFound } = EventErrors

export const eventFailures = {
  EventNotFound: noSuch(EventNotFound, "event")
}
