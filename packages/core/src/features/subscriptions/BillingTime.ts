import { Clock, Effect, Option } from "effect"
import { realClock, realClockRef } from "../../domain/RealTime.js"
import type { Tenant } from "../../domain/Tenant.js"
import { TestClocksRepository } from "../../ports/TestClocksRepository.js"

/**
 * A clock stopped at `millis` whose sleeps still pass on `base`: work due on a test clock runs with
 * the time it was due at (every timestamp it writes says so), while timeouts keep working.
 */
const stoppedClock = (millis: number, base: Clock.Clock): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => millis,
  unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
  currentTimeMillis: Effect.succeed(millis),
  currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
  sleep: (duration) => base.sleep(duration)
})

/**
 * Runs `effect` with `Clock` (and so `DateTime.now`) answering `millis`. The real clock stays
 * reachable (`realClock`): ids, leases and an advance's own bookkeeping keep to it.
 */
export const atTime = (millis: number) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(realClock, (base) =>
    Effect.withClock(
      Effect.locally(effect, realClockRef, Option.some(base)),
      stoppedClock(millis, base)
    ))

/**
 * Built once with the clocks: `onClock(tenant, clockId)(effect)` runs `effect` at the time of test
 * clock `clockId` (frozen), or now without one (or when the clock is gone).
 */
export const makeOnClock = Effect.map(
  TestClocksRepository,
  (clocks) => (tenant: Tenant, clockId: string | null) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    clockId === null ? effect : Effect.flatMap(
      clocks.find(tenant, clockId),
      Option.match({
        onNone: () => effect,
        onSome: (clock) => atTime(clock.frozen_time.epochMillis)(effect)
      })
    )
)

/** What `makeOnClock` builds. */
export type OnClock = Effect.Effect.Success<typeof makeOnClock>
