import { Clock, Effect, FiberRef, Option } from "effect"

/**
 * The process's own clock while work runs on a test clock's time (`atTime`). Ids are made on it,
 * so a test clock's time never reaches an id, nor the order of ids made afterwards.
 */
export const realClockRef: FiberRef.FiberRef<Option.Option<Clock.Clock>> = FiberRef.unsafeMake(
  Option.none<Clock.Clock>()
)

/** The real clock: the one in use, unless a test clock's time stands in for it. */
export const realClock: Effect.Effect<Clock.Clock> = Effect.flatMap(
  FiberRef.get(realClockRef),
  Option.match({ onNone: () => Effect.clock, onSome: Effect.succeed })
)

/** Milliseconds on the real clock (Effect's `TestClock` in tests), whatever test clock work runs on. */
export const realTimeMillis: Effect.Effect<number> = Effect.flatMap(realClock, (clock) => clock.currentTimeMillis)
