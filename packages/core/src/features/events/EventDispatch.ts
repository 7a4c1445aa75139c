import { Context, Duration, Effect, Layer } from "effect"
import { CurrentCausingRequest } from "../../domain/events/CausingRequest.js"
import type { Event } from "../../domain/events/Event.js"
import type { Leased } from "../../domain/LeasedWork.js"
import { EventsRepository, type StoredEvent } from "../../ports/EventsRepository.js"
import type { Job } from "../../ports/Jobs.js"
import { Transactions } from "../../ports/Transactions.js"
import { drainLeased } from "../jobs/LeasedDrain.js"
import { traced } from "../observability/Traced.js"

/**
 * Something that reacts to every event (webhook fan-out, billing). `consume` runs in the transaction
 * that marks the event dispatched: it happens exactly once per event, or not at all and is retried.
 * It runs with `CurrentCausingRequest` set to the event's request, so what it writes is traced to it too.
 */
export interface EventConsumer {
  readonly name: string
  readonly consume: (organizationId: string, event: Event) => Effect.Effect<void>
  /** Optional: a batch of events, in order, in fewer reads and writes than one `consume` each. */
  readonly consumeAll?: (events: ReadonlyArray<StoredEvent>) => Effect.Effect<void>
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
      /** One event in a transaction of its own: a dispatcher whose lease lapsed hands nothing over twice. */
      const dispatchOne = (leased: Leased<StoredEvent>) =>
        transactions.run(Effect.gen(function*() {
          if (!(yield* events.markDispatched(leased))) return
          yield* Effect.forEach(consumers, (consumer) => consumer.consume(leased.item.organizationId, leased.item.event), {
            discard: true
          }).pipe(Effect.locally(CurrentCausingRequest, leased.item.cause))
        })).pipe(
          // One event that cannot be handed over must not hold up the others: it is tried again
          // when its lease lapses.
          Effect.catchAllCause((cause) => Effect.logError(`event ${leased.item.event.id} could not be dispatched; retried later`, cause))
        )

      /**
       * A claimed batch in one transaction: marked dispatched in one write, handed to each consumer
       * at once. If any of it fails, it is rolled back and dispatched again event by event, so one
       * event that cannot be handed over holds up no other.
       */
      const dispatchBatch = (claimed: ReadonlyArray<Leased<StoredEvent>>) =>
        transactions.run(Effect.gen(function*() {
          const held = yield* events.markDispatchedAll(claimed)
          const batch = claimed.filter((leased) => held.has(leased.item.event.id)).map((leased) => leased.item)
          for (const consumer of consumers) {
            yield* consumer.consumeAll === undefined
              ? Effect.forEach(batch, (stored) =>
                consumer.consume(stored.organizationId, stored.event).pipe(Effect.locally(CurrentCausingRequest, stored.cause)), {
                discard: true
              })
              : consumer.consumeAll(batch)
          }
        })).pipe(
          Effect.catchAllCause(() =>
            Effect.forEach(claimed, dispatchOne, { discard: true })
          )
        )

      const dispatchDue = drainLeased({
        claim: events.claimUndispatched,
        handle: dispatchOne,
        handleBatch: dispatchBatch,
        leaseFor: DISPATCH_LEASE,
        concurrency: 2,
        batch: 100,
        // A pass is bounded by its lease anyway; stopping at 1000 paused a backlog for the job's spacing
        // (one second) every 1000 events, seen by `pnpm bench` draining 10 000 to a local receiver.
        maxPerPass: 10_000
      }).pipe(traced("EventDispatch.dispatchDue"))
      return { dispatchDue, jobs: [{ name: "dispatch-events", every: "1 second", run: dispatchDue }] }
    })
  )
}
