import { Clock, Duration, Effect, Fiber, TestClock } from "effect"

/** One real turn of the event loop: lets WebCrypto and other real asynchronous work move on. */
const realTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/**
 * Forks `effect` and moves the TestClock by `duration` once the fork waits on a sleep that this move
 * ends (or has finished). The TestClock takes a fiber awaiting real asynchronous work (WebCrypto
 * signing a payment's return URL) for one waiting on time, so moving it at once could pass before
 * the fork has set its deadline, which would then never come.
 */
export const forkAndAdvance = <A, E, R>(effect: Effect.Effect<A, E, R>, duration: Duration.DurationInput) =>
  Effect.gen(function*() {
    const before = new Set(yield* TestClock.sleeps())
    const fiber = yield* Effect.fork(effect)
    const end = (yield* Clock.currentTimeMillis) + Duration.toMillis(duration)
    const waitsOnThisMove = Effect.map(TestClock.sleeps(), (sleeps) => [...sleeps].some((at) => at <= end && !before.has(at)))
    // Bounded: should the fork sleep at an instant another fiber already sleeps until, it moves on.
    for (let turns = 0; turns < 2_000; turns++) {
      if ((yield* waitsOnThisMove) || (yield* Fiber.poll(fiber))._tag === "Some") break
      yield* realTurn
    }
    yield* TestClock.adjust(duration)
    return fiber
  })
