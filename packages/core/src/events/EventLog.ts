import { Context, Effect, Layer } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { API_VERSION, type Event, type EventInput } from "./Event.js"
import { EventsRepository } from "./EventsRepository.js"

/** Records the event of a state change. Call it inside the change's `Transactions.run`. */
export class EventLog extends Context.Tag("core/EventLog")<EventLog, {
  readonly record: (tenant: Tenant, input: EventInput) => Effect.Effect<Event>
}>() {
  static readonly layer = Layer.effect(
    EventLog,
    Effect.gen(function*() {
      const ids = yield* IdGenerator
      const events = yield* EventsRepository
      return {
        record: (tenant, { object, type }) =>
          Effect.gen(function*() {
            const event = {
              object: "event",
              id: yield* ids.make("evt"),
              type,
              api_version: API_VERSION,
              created_at: yield* now,
              livemode: tenant.livemode,
              data: { object }
            } as Event
            yield* events.insert(tenant.organizationId, event)
            return event
          })
      }
    })
  )
}
