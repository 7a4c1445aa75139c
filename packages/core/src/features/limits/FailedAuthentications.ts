import { Context, Effect, Layer } from "effect"
import type { Rate } from "../../domain/limits/CellRate.js"
import { TooManyFailedAuthentications } from "../../domain/limits/LimitErrors.js"
import { RateLimiter } from "../../ports/RateLimiter.js"

/**
 * How many failed authentications a client address may make: 20 at once, then one more every 3 s
 * (20 a minute). A merchant who mistypes a key fails a handful of times; a script trying keys fails
 * hundreds of times a second. Keys are unguessable anyway: the limit stops the load and the noise.
 */
export class FailedAuthenticationLimit extends Context.Reference<FailedAuthenticationLimit>()(
  "core/FailedAuthenticationLimit",
  { defaultValue: (): Rate => ({ count: 20, periodMs: 60_000 }) }
) {}

/**
 * Failed authentications counted per client address, through the rate limiter (shared by every
 * process when it is Redis). An address past its limit is refused before any key is looked at, so
 * trying more keys costs the service nothing and tells the caller nothing; successes are not counted.
 */
export class FailedAuthentications extends Context.Tag("core/FailedAuthentications")<FailedAuthentications, {
  /** Refuses an address with no failure left; counts nothing. */
  readonly admit: (address: string) => Effect.Effect<void, TooManyFailedAuthentications>
  /** Counts one failure; refused when it was one too many (requests racing past `admit`). */
  readonly record: (address: string) => Effect.Effect<void, TooManyFailedAuthentications>
}>() {
  static readonly layer = Layer.effect(
    FailedAuthentications,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const rate = yield* FailedAuthenticationLimit
      const bucket = (address: string) => `auth-failures:${address}`
      const decide = (address: string, peek: boolean) =>
        Effect.flatMap(limiter.admit(bucket(address), rate, { peek }), (decision) =>
          decision.allowed
            ? Effect.void
            : Effect.fail(new TooManyFailedAuthentications({ retryAfterMs: decision.retryAfterMs })))
      return { admit: (address) => decide(address, true), record: (address) => decide(address, false) }
    })
  )
}
