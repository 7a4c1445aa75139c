import { Effect } from "effect"
import { KeyProvider, VaultKeyFailure } from "../keys/KeyProvider.js"
import { gcmOpen, gcmSeal, randomKey } from "./Gcm.js"

/** A card's data at rest: encrypted under its own data key, which the KEK of `keyVersion` wraps. */
export interface SealedCard {
  readonly keyVersion: number
  readonly wrappedKey: Uint8Array
  readonly ciphertext: Uint8Array
}

const encoder = new TextEncoder()

/** The associated data: the card's id, so a ciphertext or a wrapped key moved to another row fails. */
const cardContext = (cardId: string) => encoder.encode(`vault card ${cardId}`)

/** Encrypts `plaintext` for the card `cardId` under a fresh data key, wrapped by the current KEK. */
export const sealCard = (cardId: string, plaintext: Uint8Array) =>
  Effect.gen(function*() {
    const keys = yield* KeyProvider
    const dataKey = randomKey()
    const ciphertext = gcmSeal(dataKey, plaintext, cardContext(cardId))
    const { version, wrapped } = yield* keys.wrap(dataKey, cardContext(cardId))
    dataKey.fill(0)
    return { keyVersion: version, wrappedKey: wrapped, ciphertext } satisfies SealedCard
  })

/**
 * The card's data key, unwrapped under its version and wrapped again under the current one: what a
 * rotation writes back (the ciphertext does not change). `VaultKeyFailure` when it does not unwrap.
 */
export const rewrapDataKey = (cardId: string, keyVersion: number, wrappedKey: Uint8Array) =>
  Effect.gen(function*() {
    const keys = yield* KeyProvider
    const dataKey = yield* keys.unwrap(keyVersion, wrappedKey, cardContext(cardId))
    const { version, wrapped } = yield* keys.wrap(dataKey, cardContext(cardId))
    dataKey.fill(0)
    return { keyVersion: version, wrappedKey: wrapped }
  })

/** The card's plaintext, or `VaultKeyFailure` for anything that is not exactly what was sealed for this card. */
export const openCardWith = (keys: KeyProvider["Type"], cardId: string, sealed: SealedCard) =>
  Effect.flatMap(keys.unwrap(sealed.keyVersion, sealed.wrappedKey, cardContext(cardId)), (dataKey) => {
    const plaintext = gcmOpen(dataKey, sealed.ciphertext, cardContext(cardId))
    dataKey.fill(0)
    return plaintext === undefined
      ? new VaultKeyFailure({ reason: "the card's data does not open under its data key" })
      : Effect.succeed(plaintext)
  })

/** `openCardWith` under the `KeyProvider` of the context. */
export const openCard = (cardId: string, sealed: SealedCard) => Effect.flatMap(KeyProvider, (keys) => openCardWith(keys, cardId, sealed))
