import { Context, Duration, Effect, Layer } from "effect"
import type { Job } from "../ports/Jobs.js"
import { drainLeased } from "../ports/LeasedWork.js"
import { Transactions } from "../ports/Transactions.js"
import type { Event } from "./Event.js"
import { EventsRepository } from "./EventsRepository.js"

/**
 * Something that reacts to every event (webhook fan-out, billing). `consume` runs in the transaction
 * that marks the event dispatched: it happens exactly once per event, or not at all and is retried.
 */
export interface EventConsumer {
  readonly name: string
  readonly consume: (organizationId: string, event: Event) => Effect.Effect<void>
}

/** The consumers of the outbox, assembled where the application is composed. */
export class EventConsumers extends Context.Reference<EventConsumers>()("core/EventConsumers", {
  defaultValue: (): ReadonlyArray<EventConsumer> => []
}) {}

/** How the outbox is drained: a lease outlives the consumers' work on one event by far. */
export const DISPATCH_LEASE = Duration.minutes(1)

/** Hands every new event to the consumers, each event once, in the order they were written. */
export class EventDispatch extends Context.Tag("core/EventDispatch")<EventDispatch, {
  readonly dispatchDue: Effect.Effect<number>
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(
    EventDispatch,
    Effect.gen(function*() {
      const events = yield* EventsRepository
      const consumers = yield* EventConsumers
      const transactions = yield* Transactions
      const dispatchDue = drainLeased({
        claim: events.claimUndispatched,
        handle: (leased) =>
          transactions.run(Effect.gen(function*() {
            // A dispatcher whose lease lapsed must not hand the event over a second time.
            if (!(yield* events.markDispatched(leased))) return
            yield* Effect.forEach(consumers, (consumer) => consumer.consume(leased.item.organizationId, leased.item.event), {
              discard: true
            })
          })).pipe(
            // One event that cannot be handed over must not hold up the others: it is tried again
            // when its lease lapses.
            Effect.catchAllCause((cause) =>
              Effect.logError(`event ${leased.item.event.id} could not be dispatched; retried later`, cause)
            )
          ),
        leaseFor: DISPATCH_LEASE,
        concurrency: 8,
        // A pass is bounded by its lease anyway; stopping at 1000 paused a backlog for the job's spacing
        // (one second) every 1000 events, seen by `pnpm bench` draining 10 000 to a local receiver.
        maxPerPass: 10_000
      }).pipe(Effect.withSpan("EventDispatch.dispatchDue"))
      return { dispatchDue, jobs: [{ name: "dispatch-events", every: "1 second", run: dispatchDue }] }
    })
  )
}
