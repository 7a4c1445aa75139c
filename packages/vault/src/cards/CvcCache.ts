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
  return {
    put: (cardId: string, cvc: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        held.set(cardId, { box: gcmSeal(key, encoder.encode(cvc), encoder.encode(cardId)), until: now + ttlMillis })
        // Gone at its time even if nothing reads it again (a read checks the time too, for the test clock).
        const entry = held.get(cardId)
        setTimeout(() => {
          if (held.get(cardId) === entry) held.delete(cardId)
        }, ttlMillis).unref()
      }),
    /** The code while it is held and unexpired; reading does not remove it (a retry of the same send needs it). */
    peek: (cardId: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        // Only this card's entry is looked at: a payment never walks every code held (the timers take the rest).
        let entry = held.get(cardId)
        if (entry !== undefined && entry.until <= now) {
          held.delete(cardId)
          entry = undefined
        }
        const opened = entry === undefined ? undefined : gcmOpen(key, entry.box, encoder.encode(cardId))
        return opened === undefined ? Option.none<string>() : Option.some(decoder.decode(opened))
      }),
    destroy: (cardId: string) => Effect.sync(() => void held.delete(cardId))
  }
}

export type CvcCache = ReturnType<typeof makeCvcCache>
