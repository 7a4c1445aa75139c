import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import type { Event } from "../../domain/events/Event.js"
import { EventNotFound } from "../../domain/events/EventErrors.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { type EventFilter, EventsRepository } from "../../ports/EventsRepository.js"
import type { Job } from "../../ports/Jobs.js"
import { traced } from "../observability/Traced.js"

/** Events are kept this long, then purged. */
export const EVENT_RETENTION = Duration.days(30)

/** The events of the last 30 days, as the API shows them. */
export class Events extends Context.Tag("core/Events")<
  Events,
  ResourceReads<Event, EventNotFound, EventFilter> & {
    readonly jobs: ReadonlyArray<Job>
  }
>() {
  static readonly layer = Layer.effect(
    Events,
    Effect.map(EventsRepository, (events) => {
      const purge = Effect.flatMap(DateTime.now, (now) => events.purge(DateTime.subtract(now, { millis: Duration.toMillis(EVENT_RETENTION) }))).pipe(
        traced("Events.purge")
      )
      return {
        retrieve: (tenant, id) =>
          Effect.flatMap(
            events.find(tenant, id),
            Option.match({ onNone: () => Effect.fail(new EventNotFound({ id })), onSome: Effect.succeed })
          ),
        list: events.list,
        jobs: [{ name: "purge-events", every: "1 hour", run: purge }]
      }
    })
  )
}
