import { Clock, Effect, Option } from "effect"
import { gcmOpen, gcmSeal, randomKey } from "../crypto/Gcm.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * Security codes waiting for their card's first authorization: in this process's memory only,
 * encrypted under a key made at start (a heap dump shows no code in clear), each gone after `ttlMillis`
 * or once taken. Never written to a database (PCI DSS 3.3.1: not stored after authorization).
 */
export const makeCvcCache = (ttlMillis: number) => {
  const key = randomKey()
  const held = new Map<string, { readonly box: Uint8Array; readonly until: number }>()
  const sweep = (now: number) => {
    for (const [cardId, entry] of held) if (entry.until <= now) held.delete(cardId)
  }
  return {
    put: (cardId: string, cvc: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        held.set(cardId, { box: gcmSeal(key, encoder.encode(cvc), encoder.encode(cardId)), until: now + ttlMillis })
        // Gone at its time even if nothing touches the cache again (a sweep alone waits for the next use).
        const entry = held.get(cardId)
        setTimeout(() => {
          if (held.get(cardId) === entry) held.delete(cardId)
        }, ttlMillis).unref()
      }),
    /** The code while it is held and unexpired; reading does not remove it (a retry of the same send needs it). */
    peek: (cardId: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        const entry = held.get(cardId)
        const opened = entry === undefined ? undefined : gcmOpen(key, entry.box, encoder.encode(cardId))
        return opened === undefined ? Option.none<string>() : Option.some(decoder.decode(opened))
      }),
    destroy: (cardId: string) => Effect.sync(() => void held.delete(cardId)),
    /** How many codes are held, for tests that check one is gone. */
    size: Effect.map(Clock.currentTimeMillis, (now) => {
      sweep(now)
      return held.size
    })
  }
}

export type CvcCache = ReturnType<typeof makeCvcCache>
