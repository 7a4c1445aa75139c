import { Context, DateTime, Duration, Effect, Exit, Layer, Option } from "effect"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { BillingRequestInvalid, TestClockBusy, TestClockNotFound } from "../../domain/subscriptions/SubscriptionErrors.js"
import { type AdvanceTestClock, type CreateTestClock, TestClock } from "../../domain/subscriptions/TestClock.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { SubscriptionsRepository } from "../../ports/SubscriptionsRepository.js"
import { TestClocksRepository } from "../../ports/TestClocksRepository.js"
import { traced } from "../observability/Traced.js"
import { atTime } from "./BillingTime.js"
import { Subscriptions } from "./Subscriptions.js"

/** More steps than two years of daily billing need; a schedule that never settles stops here. */
const MAX_STEPS = 5_000

/** How far one advance may go: a request that bills years of daily periods would hold its caller too long. */
const MAX_ADVANCE_MILLIS = 2 * 366 * 86_400_000

/** How long an advance holds its clock without renewing (it renews before every step); a crashed one is taken over after. */
const ADVANCE_LEASE = Duration.minutes(2)

/** How often an advance looks again at a due step another process holds (the worker took it first). */
const HELD_STEP_POLL = Duration.millis(50)

/** The latest year a test clock may show (see `withinRange`). */
const LATEST_CLOCK_YEAR = 9000

const notForward = () =>
  new BillingRequestInvalid({
    param: "frozen_time",
    code: "clock_time_not_forward",
    message: "A test clock only moves forward: frozen_time must be after the clock's current time."
  })

const testModeOnly = (tenant: Tenant) =>
  tenant.livemode
    ? Effect.fail(
      new BillingRequestInvalid({
        param: "livemode",
        code: "test_clock_livemode",
        message: "Test clocks exist only in test mode; use a sk_test_ key."
      })
    )
    : Effect.void

/**
 * A clock's time leaves room for what billing adds to it (a period of up to three years, a trial
 * of two): every date it computes stays within what timestamps can hold.
 */
const withinRange = (time: DateTime.Utc) =>
  DateTime.getPart(time, "year") <= LATEST_CLOCK_YEAR ? Effect.void : Effect.fail(
    new BillingRequestInvalid({
      param: "frozen_time",
      code: "clock_time_out_of_range",
      message: `A test clock's time must be in ${LATEST_CLOCK_YEAR} or earlier.`
    })
  )

/** Runs a clock's due steps in time order, each at the time it was due, with what an advance needs. */
const makeAdvanceSteps = Effect.gen(function*() {
  const repository = yield* TestClocksRepository
  const subscriptionsRepository = yield* SubscriptionsRepository
  const subscriptions = yield* Subscriptions

  /**
   * Claims and runs the clock's earliest due step until none is due by `target`, renewing the
   * advance's hold on the clock before each. A step someone else holds (the worker took it before
   * the advance began) is waited for: the answer says `ready` only once nothing is due.
   * `gone`: the clock was deleted (or its lapsed advance taken over) meanwhile.
   */
  const drain = (tenant: Tenant, clockId: string, target: DateTime.Utc, token: string) =>
    Effect.gen(function*() {
      for (let step = 0; step < MAX_STEPS;) {
        const real = yield* now
        if (!(yield* repository.holdAdvance(tenant, clockId, token, DateTime.addDuration(real, ADVANCE_LEASE)))) {
          return "gone" as const
        }
        const claimed = yield* subscriptionsRepository.claimDueOnClock(tenant, clockId, target, {
          now: real,
          until: DateTime.add(real, { minutes: 2 }),
          limit: 1
        })
        const next = claimed[0]
        if (next === undefined) {
          if (!(yield* subscriptionsRepository.dueOnClock(tenant, clockId, target))) return "settled" as const
          yield* Effect.sleep(HELD_STEP_POLL)
          continue
        }
        step++
        yield* Effect.ensuring(
          atTime(next.item.dueAt.epochMillis)(subscriptions.runDue(tenant, next.item.subscriptionId)),
          subscriptionsRepository.release(next.item.subscriptionId, next.token)
        )
      }
      return "unsettled" as const
    })

  return drain
})

export class TestClocks extends Context.Tag("core/TestClocks")<
  TestClocks,
  ResourceReads<TestClock, TestClockNotFound> & {
    readonly create: (tenant: Tenant, input: CreateTestClock) => Effect.Effect<TestClock, BillingRequestInvalid>
    readonly remove: (tenant: Tenant, id: string) => Effect.Effect<TestClock, TestClockNotFound>
    /**
     * Moves the clock to `frozen_time`, running every renewal, retry, trial end and expiry due on its
     * customers' subscriptions in time order, each at the time it was due; answers once all of it has
     * settled (`ready`). The clock shows `advancing` meanwhile.
     */
    readonly advance: (tenant: Tenant, id: string, input: AdvanceTestClock) => Effect.Effect<
      TestClock,
      TestClockNotFound | BillingRequestInvalid | TestClockBusy
    >
    readonly jobs: ReadonlyArray<Job>
  }
>() {
  static readonly layer = Layer.effect(
    TestClocks,
    Effect.gen(function*() {
      const repository = yield* TestClocksRepository
      const ids = yield* IdGenerator
      const drain = yield* makeAdvanceSteps

      const retrieve = (tenant: Tenant, id: string) =>
        Effect.flatMap(
          repository.find(tenant, id),
          Option.match({
            onNone: () => Effect.fail(new TestClockNotFound({ id })),
            onSome: Effect.succeed
          })
        )

      const advance = Effect.fn("TestClocks.advance")(function*(tenant: Tenant, id: string, input: AdvanceTestClock) {
        const clock = yield* retrieve(tenant, id)
        if (!DateTime.greaterThan(input.frozen_time, clock.frozen_time)) return yield* notForward()
        if (input.frozen_time.epochMillis - clock.frozen_time.epochMillis > MAX_ADVANCE_MILLIS) {
          return yield* new BillingRequestInvalid({
            param: "frozen_time",
            code: "clock_advance_too_far",
            message: "One advance moves a test clock by at most two years; advance again to go further."
          })
        }
        yield* withinRange(input.frozen_time)
        const real = yield* now
        const started = yield* repository.startAdvance(tenant, id, input.frozen_time, {
          now: real,
          until: DateTime.addDuration(real, ADVANCE_LEASE)
        })
        switch (started._tag) {
          case "Missing":
            return yield* new TestClockNotFound({ id })
          case "Busy":
            return yield* new TestClockBusy({ id })
          case "NotForward":
            return yield* notForward()
        }
        const done = yield* runAdvance(tenant, started.clock, input.frozen_time, started.token)
        return Option.isSome(done) ? done.value : yield* new TestClockNotFound({ id })
      })

      /**
       * Runs a held advance to its end and lets the clock go: at `target`, `ready` once nothing is due.
       * None when the clock was deleted meanwhile: no `ready` for a clock that is gone.
       */
      const runAdvance = (tenant: Tenant, clock: TestClock, target: DateTime.Utc, token: string) =>
        Effect.gen(function*() {
          const before = new TestClock({ ...clock, status: "ready" })
          const outcome = yield* drain(tenant, clock.id, target, token).pipe(
            // Cut short by a failure or an interruption: the clock is let go at its former time, not left `advancing`.
            Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : repository.finishAdvance(tenant, before, token))
          )
          if (outcome === "gone") return Option.none<TestClock>()
          const done = new TestClock({ ...before, frozen_time: target, status: outcome === "settled" ? "ready" : "internal_failure" })
          return (yield* repository.finishAdvance(tenant, done, token)) ? Option.some(done) : Option.none<TestClock>()
        })

      /** An advance whose process died mid-way (its lease ran out) is finished by the worker, to the time it was asked for. */
      const finishAbandoned = Effect.gen(function*() {
        const real = yield* now
        const claimed = yield* repository.claimAbandoned({ now: real, until: DateTime.addDuration(real, ADVANCE_LEASE), limit: 10 })
        yield* Effect.forEach(claimed, (advance) =>
          runAdvance(advance.tenant, advance.clock, advance.target, advance.token).pipe(
            Effect.catchAllCause((cause) => Effect.logError(`the advance of test clock ${advance.clock.id} failed`, cause))
          ), { discard: true })
        return claimed.length
      }).pipe(traced("TestClocks.finishAbandoned"))

      return {
        create: (tenant, input) =>
          Effect.gen(function*() {
            yield* testModeOnly(tenant)
            yield* withinRange(input.frozen_time)
            const clock = new TestClock({
              object: "test_helpers.test_clock",
              id: yield* ids.make("clock"),
              name: input.name ?? null,
              frozen_time: input.frozen_time,
              status: "ready",
              created_at: yield* now,
              livemode: false
            })
            yield* repository.insert(tenant, clock)
            return clock
          }),
        retrieve,
        list: (tenant, page) => repository.list(tenant, page),
        // Deleting ends a running advance too: its next step finds the clock gone and it answers 404.
        remove: (tenant, id) =>
          Effect.gen(function*() {
            const clock = yield* retrieve(tenant, id)
            yield* repository.remove(tenant, id)
            return clock
          }),
        advance,
        jobs: [{ name: "finish-test-clock-advances", every: "5 seconds", run: finishAbandoned }]
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, Subscriptions.layer)))
}
