import { Context, Effect, Layer } from "effect"
import { type IdPrefix, makeMonotonicIds } from "../domain/Ids.js"
import { realTimeMillis } from "../domain/RealTime.js"

/**
 * Id generation as a port, so tests can make ids predictable when they need to. Ids take their time
 * from the real clock only: work billed on a test clock must not push every later id into its future.
 */
export class IdGenerator extends Context.Tag("core/IdGenerator")<IdGenerator, {
  readonly make: (prefix: IdPrefix) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.sync(IdGenerator, () => {
    const next = makeMonotonicIds()
    return { make: (prefix) => Effect.map(realTimeMillis, (millis) => next(prefix, millis)) }
  })
}
