import { Clock, Effect, Option } from "effect"
import { realClock, realClockRef } from "../domain/RealTime.js"

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
