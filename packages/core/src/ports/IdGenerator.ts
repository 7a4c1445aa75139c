import { Clock, Context, Effect, Layer } from "effect"
import { type IdPrefix, makeMonotonicIds } from "../domain/Ids.js"

/** Id generation as a port, so tests can make ids predictable when they need to. */
export class IdGenerator extends Context.Tag("core/IdGenerator")<IdGenerator, {
  readonly make: (prefix: IdPrefix) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.sync(IdGenerator, () => {
    const next = makeMonotonicIds()
    return { make: (prefix) => Effect.map(Clock.currentTimeMillis, (millis) => next(prefix, millis)) }
  })
}
