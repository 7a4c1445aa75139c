import { Context, type DateTime, Effect, Either, Layer, Option } from "effect"
import type { EventInput } from "../../domain/events/Event.js"
import type { IdempotencyRecord, KeyCompletion } from "../../domain/idempotency/IdempotencyKey.js"
import type { StateMachine } from "../../domain/StateMachine.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import type { CardReadAlong } from "../../ports/CardVault.js"
import type { RecordStore } from "../../ports/RecordStore.js"
import { Transactions } from "../../ports/Transactions.js"
import { EventLog } from "../events/EventLog.js"

interface Stateful<S extends string> {
  readonly id: string
  readonly status: S
  readonly updated_at: DateTime.Utc
}

/** A record's states from its first to the one written, in order. */
type States<A> = readonly [A, ...ReadonlyArray<A>]

/** A move prepared on a record as last seen (`advance`): the record it makes, the states it passed, their events. */
export interface Advance<A> {
  readonly record: A
  readonly moved: ReadonlyArray<A>
  readonly events: ReadonlyArray<EventInput>
}

/** The operations `makeLifecycle` gives a kind of record. */
export interface Lifecycle<S extends string, A, NotFound> {
  readonly load: (tenant: Tenant, id: string) => Effect.Effect<A, NotFound>
  readonly lock: (tenant: Tenant, id: string) => Effect.Effect<A>
  readonly create: (tenant: Tenant, record: A) => Effect.Effect<A>
  /**
   * Creates a record that moves on at once (a payment created and sent): each state, in order, is
   * checked against the machine and gets its event, and only the last is written.
   */
  readonly createThrough: (tenant: Tenant, states: States<A>, cardRead?: CardReadAlong) => Effect.Effect<A>
  /**
   * `createThrough` with the request's Idempotency-Key (`key`) inserted by the same write: `None`, and
   * nothing written, when the key exists already. (`cardRead`: see `RecordStore.insertWithEvents`.)
   */
  readonly createWithKey: (tenant: Tenant, states: States<A>, key: IdempotencyRecord, cardRead?: CardReadAlong) => Effect.Effect<Option.Option<A>>
  readonly move: (tenant: Tenant, record: A, to: S, changes?: Partial<A>) => Effect.Effect<A>
  readonly save: (tenant: Tenant, record: A, changes: Partial<A>) => Effect.Effect<A>
  /**
   * A move without a lock, prepared: `steps` (each checked against the machine, with its event) and
   * then `changes`, applied to the record as last `seen`. Nothing is written yet: see `writeAdvance`.
   */
  readonly advance: (
    tenant: Tenant,
    seen: A,
    steps: ReadonlyArray<{ readonly to: S; readonly changes: Partial<A> }>,
    changes?: Partial<A>
  ) => Effect.Effect<Advance<A>>
  /**
   * On its own (no transaction needed): the prepared move and its events in one write, if nobody has
   * changed the record since it was `seen`; false, and nothing written, when someone has (the caller
   * judges again on the locked record). The fast path of the common case, where the process that sent
   * a payment also learns how it ended. A key's `completion`, when the record is the request's answer,
   * is written by the same write.
   */
  readonly writeAdvance: (tenant: Tenant, seen: A, advance: Advance<A>, completion?: KeyCompletion) => Effect.Effect<boolean>
  readonly moveIfStill: (
    tenant: Tenant,
    id: string,
    from: S | ReadonlyArray<S>,
    to: S,
    changes: (current: A) => Partial<A>
  ) => Effect.Effect<A>
}

/**
 * The one way records with a status are created and moved: every status (the first one included)
 * is checked against the state machine and saved with its event, in the caller's transaction.
 * Payments, refunds, checkout sessions, subscriptions and invoices use it.
 */
/** What `makeLifecycle` needs to know of a kind of record besides its store. */
export interface LifecycleOptions<S extends string, T extends EventInput["type"], A, NotFound> {
  readonly machine: StateMachine<S, T>
  /** Builds a record from its fields (the class constructor, which validates them). */
  readonly make: (fields: A) => A
  /**
   * The event of a move to `record`: effectful, for events whose object shows related records (a
   * subscription's latest invoice, an invoice's payment), which are read as `tenant`'s.
   */
  readonly event: (type: T, record: A, tenant: Tenant) => Effect.Effect<EventInput>
  readonly notFound: (id: string) => NotFound
  /** Told of each status a record entered, once it is written (metrics count finished records here). */
  readonly entered?: (tenant: Tenant, record: A) => Effect.Effect<void>
}

export const makeLifecycle = <S extends string, T extends EventInput["type"], A extends Stateful<S>, NotFound>(
  options: LifecycleOptions<S, T, A, NotFound> & { readonly store: RecordStore<A> }
): Effect.Effect<Lifecycle<S, A, NotFound>, never, Transactions | EventLog> =>
  Effect.gen(function*() {
    const transactions = yield* Transactions
    const events = yield* EventLog
    const { machine, store } = options
    const entered = (tenant: Tenant, records: ReadonlyArray<A>) =>
      options.entered === undefined ? Effect.void : Effect.forEach(records, (record) => options.entered!(tenant, record), { discard: true })

    const stepOf = (from: S | null, to: S) =>
      Effect.flatMap(Effect.sync(() => machine.move(from, to)), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))

    const load = (tenant: Tenant, id: string): Effect.Effect<A, NotFound> =>
      Effect.flatMap(
        store.find(tenant, id),
        Option.match({ onNone: () => Effect.fail(options.notFound(id)), onSome: Effect.succeed })
      )

    /** Locks a record known to exist (it was found before the transaction began). */
    const lock = (tenant: Tenant, id: string): Effect.Effect<A> =>
      Effect.flatMap(
        store.findForUpdate(tenant, id),
        Option.match({ onNone: () => Effect.dieMessage(`${machine.name} ${id} vanished`), onSome: Effect.succeed })
      )

    /**
     * New records are written with their events in one write of the store, and moves without a lock
     * as one compare-and-set (`writeAdvance`): every store, memory included, has both, so
     * tests take production's path.
     */
    const insertThrough = (tenant: Tenant, states: States<A>, key?: IdempotencyRecord, cardRead?: CardReadAlong) =>
      Effect.gen(function*() {
        const steps = yield* Effect.forEach(states, (state, index) => stepOf(index === 0 ? null : states[index - 1]!.status, state.status))
        const last = states[states.length - 1]!
        const inputs = yield* Effect.forEach(states, (state, index) => options.event(steps[index]!.event, state, tenant))
        const written = yield* store.insertWithEvents(tenant, last, yield* events.prepare(tenant, inputs), key, cardRead)
        if (written) yield* entered(tenant, states)
        return written ? Option.some(last) : Option.none()
      })

    const createWithKey = (tenant: Tenant, states: States<A>, key: IdempotencyRecord, cardRead?: CardReadAlong) => insertThrough(tenant, states, key, cardRead)

    const createThrough = (tenant: Tenant, states: States<A>, cardRead?: CardReadAlong): Effect.Effect<A> =>
      Effect.map(insertThrough(tenant, states, undefined, cardRead), Option.getOrThrow)

    /** Inserts a new record in its first status, with that status's event. */
    const create = (tenant: Tenant, record: A): Effect.Effect<A> => createThrough(tenant, [record])

    /** Moves a locked record to `to`, saving `changes` with it, and records the move's event. */
    const move = (tenant: Tenant, record: A, to: S, changes: Partial<A> = {}): Effect.Effect<A> =>
      Effect.gen(function*() {
        const step = yield* stepOf(record.status, to)
        const updated = options.make({ ...record, ...changes, status: to, updated_at: yield* now })
        yield* store.update(tenant, updated)
        yield* events.record(tenant, yield* options.event(step.event, updated, tenant))
        yield* entered(tenant, [updated])
        return updated
      })

    /** Saves changes that are not a move (an attempt's latency, a PSP id): no event. */
    const save = (tenant: Tenant, record: A, changes: Partial<A>): Effect.Effect<A> =>
      Effect.gen(function*() {
        const updated = options.make({ ...record, ...changes, status: record.status, updated_at: yield* now })
        yield* store.update(tenant, updated)
        return updated
      })

    const advance = (
      tenant: Tenant,
      seen: A,
      steps: ReadonlyArray<{ readonly to: S; readonly changes: Partial<A> }>,
      changes: Partial<A> = {}
    ): Effect.Effect<Advance<A>> =>
      Effect.gen(function*() {
        const at = yield* now
        let record = seen
        const inputs: Array<EventInput> = []
        const moved: Array<A> = []
        for (const step of steps) {
          const checked = yield* stepOf(record.status, step.to)
          record = options.make({ ...record, ...step.changes, status: step.to, updated_at: at })
          inputs.push(yield* options.event(checked.event, record, tenant))
          moved.push(record)
        }
        record = options.make({ ...record, ...changes, status: record.status, updated_at: at })
        return { record, moved, events: inputs }
      })

    const writeAdvance = (tenant: Tenant, seen: A, prepared: Advance<A>, completion?: KeyCompletion): Effect.Effect<boolean> =>
      Effect.gen(function*() {
        const written = yield* store.updateIfUnchanged(tenant, seen, prepared.record, yield* events.prepare(tenant, prepared.events), completion)
        if (written) yield* entered(tenant, prepared.moved)
        return written
      })

    /**
     * In its own transaction: moves the record if, once locked, it is still in one of `from`;
     * otherwise someone else moved it first and it is returned as it is.
     */
    const moveIfStill = (
      tenant: Tenant,
      id: string,
      from: S | ReadonlyArray<S>,
      to: S,
      changes: (current: A) => Partial<A>
    ): Effect.Effect<A> =>
      transactions.run(Effect.gen(function*() {
        const current = yield* lock(tenant, id)
        const expected: ReadonlyArray<S> = typeof from === "string" ? [from] : from
        return expected.includes(current.status) ? yield* move(tenant, current, to, changes(current)) : current
      }))

    return { load, lock, create, createThrough, createWithKey, move, save, advance, writeAdvance, moveIfStill }
  })

/**
 * The tag of a kind of record's `Lifecycle` (its status, the record, its not-found failure), for a
 * class: `class PaymentRecords extends LifecycleTag("core/PaymentRecords")<PaymentRecords, …>() {}`.
 */
export const LifecycleTag =
  <const Id extends string>(id: Id) => <Self, S extends string, A, NotFound>(): Context.TagClass<Self, Id, Lifecycle<S, A, NotFound>> =>
    Context.Tag(id)<Self, Lifecycle<S, A, NotFound>>()

/**
 * The layer of `tag`, a kind of record's `Lifecycle` over the records of `repository`; its events go
 * to the event log, in the caller's transaction.
 */
export const lifecycleLayer = <
  Self,
  S extends string,
  T extends EventInput["type"],
  A extends Stateful<S>,
  NotFound,
  Repository,
  R extends RecordStore<A>
>(
  tag: Context.Tag<Self, Lifecycle<S, A, NotFound>>,
  repository: Context.Tag<Repository, R>,
  options: LifecycleOptions<S, T, A, NotFound>
) =>
  Layer.effect(tag, Effect.flatMap(repository, (store) => makeLifecycle({ ...options, store }))).pipe(
    Layer.provide(EventLog.layer)
  )
