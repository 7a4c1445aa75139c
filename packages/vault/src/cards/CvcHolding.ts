import { Effect, Option } from "effect"
import type { KeyProvider } from "../keys/KeyProvider.js"
import { makeCvcCache } from "./CvcCache.js"
import type { SharedCvcs } from "./SharedCvcs.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Bound to the card: a code moved to another card's name does not open. Apart from the card data's own context. */
const cvcContext = (cardId: string) => encoder.encode(`vault cvc ${cardId}`)

/**
 * Where a card's security code waits for its first authorization. Alone: this process's memory. With
 * `shared` (Redis): sealed under the vault's current KEK (`<version>.<base64>`, so every process with
 * the keyring opens it, and a rotation meanwhile changes nothing), taken once by whichever process
 * authorizes first, and kept in that process's memory only until the PSP has answered, so a failover
 * to the next PSP in the same request still sends it.
 */
export const makeCvcHolding = (ttlMillis: number, keys: KeyProvider["Type"], shared: Option.Option<SharedCvcs["Type"]>) => {
  const local = makeCvcCache(ttlMillis)
  const seal = (cardId: string, cvc: string) =>
    Effect.map(keys.wrap(encoder.encode(cvc), cvcContext(cardId)), ({ version, wrapped }) => `${version}.${Buffer.from(wrapped).toString("base64")}`)
  const open = (cardId: string, sealed: string) => {
    const match = /^([1-9][0-9]{0,5})\.([A-Za-z0-9+/=]+)$/.exec(sealed)
    if (match === null) return Effect.succeed(Option.none<string>())
    return keys.unwrap(Number(match[1]), new Uint8Array(Buffer.from(match[2]!, "base64")), cvcContext(cardId)).pipe(
      Effect.map((plain) => Option.some(decoder.decode(plain))),
      // Fails closed: a code that does not open is no code (the payment goes without one).
      Effect.catchTag(
        "VaultKeyFailure",
        () => Effect.as(Effect.logWarning(`The security code held for card ${cardId} did not open; the payment goes without it.`), Option.none<string>())
      )
    )
  }
  return {
    put: (cardId: string, cvc: string) =>
      Option.isNone(shared)
        ? local.put(cardId, cvc)
        : Effect.flatMap(seal(cardId, cvc), (sealed) =>
          Effect.flatMap(shared.value.put(cardId, sealed, ttlMillis), (held) => held ? Effect.void : local.put(cardId, cvc))),
    /** The code for an authorization of the card: held here already (a failover's next PSP), else taken from the shared store. */
    forAuthorization: (cardId: string) =>
      Option.isNone(shared) ? local.peek(cardId) : Effect.gen(function*() {
        const held = yield* local.peek(cardId)
        if (Option.isSome(held)) return held
        const taken = yield* Effect.flatMap(
          shared.value.take(cardId),
          Option.match({ onNone: () => Effect.succeed(Option.none<string>()), onSome: (sealed) => open(cardId, sealed) })
        )
        if (Option.isSome(taken)) yield* local.put(cardId, taken.value)
        return taken
      }),
    destroy: (cardId: string) => Effect.zipRight(local.destroy(cardId), Option.isNone(shared) ? Effect.void : shared.value.destroy(cardId))
  }
}
