import { NotFound } from "../Failure.js"

/** No event with this id for this key (or it was purged). */
export class EventNotFound extends NotFound("EventNotFound", "event", "this key (events are kept 30 days)") {}
