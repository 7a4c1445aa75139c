import { Context, Effect, Layer } from "effect"
import { API_VERSION, type Event, type EventInput } from "../../domain/events/Event.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { EventsRepository } from "../../ports/EventsRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"

/** Records the event of a state change. Call it inside the change's `Transactions.run`. */
export class EventLog extends Context.Tag("core/EventLog")<EventLog, {
  readonly record: (tenant: Tenant, input: EventInput) => Effect.Effect<Event>
  /** The events of several moves made at once, in order, in one write. */
  readonly recordAll: (tenant: Tenant, inputs: ReadonlyArray<EventInput>) => Effect.Effect<ReadonlyArray<Event>>
  /** The events of `inputs`, made but not written: for a store that writes them with its record. */
  readonly prepare: (tenant: Tenant, inputs: ReadonlyArray<EventInput>) => Effect.Effect<ReadonlyArray<Event>>
}>() {
  static readonly layer = Layer.effect(
    EventLog,
    Effect.gen(function*() {
      const ids = yield* IdGenerator
      const events = yield* EventsRepository
      const eventOf = (tenant: Tenant, { object, type }: EventInput) =>
        Effect.gen(function*() {
          return {
            object: "event",
            id: yield* ids.make("evt"),
            type,
            api_version: API_VERSION,
            created_at: yield* now,
            livemode: tenant.livemode,
            data: { object }
          } as Event
        })
      const prepare = (tenant: Tenant, inputs: ReadonlyArray<EventInput>) => Effect.forEach(inputs, (input) => eventOf(tenant, input))
      const recordAll = (tenant: Tenant, inputs: ReadonlyArray<EventInput>) =>
        Effect.gen(function*() {
          const recorded = yield* prepare(tenant, inputs)
          yield* events.insertAll(tenant.organizationId, recorded)
          return recorded
        })
      return {
        record: (tenant, input) => Effect.map(recordAll(tenant, [input]), (recorded) => recorded[0]!),
        recordAll,
        prepare
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
