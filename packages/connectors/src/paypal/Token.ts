import { Clock, Effect } from "effect"

/** An access token and the instant (Effect Clock millis) from which it is no longer used. */
interface CachedToken {
  readonly accessToken: string
  readonly usableUntilMillis: number
}

/**
 * Tokens are given up this long before PayPal says they expire, so that a call started just before
 * the expiry never reaches PayPal with a token that ran out on the way.
 */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 60

/**
 * PayPal's OAuth2 access tokens (client credentials), kept per connection and client id until they
 * expire by the Effect Clock: one token request serves every call in its lifetime (PayPal asks
 * integrations to reuse tokens, ~9 h). A token PayPal refuses (401) is dropped, and the next call
 * fetches a new one.
 */
export const makeTokenCache = () => {
  const tokens = new Map<string, CachedToken>()
  return {
    /** The cached token of `key`, else one fetched by `fetch` (its `expires_in` in seconds) and kept. */
    token: <E>(
      key: string,
      fetch: Effect.Effect<{ readonly access_token: string; readonly expires_in: number }, E>
    ): Effect.Effect<string, E> =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const cached = tokens.get(key)
        if (cached !== undefined && now < cached.usableUntilMillis) return cached.accessToken
        const fresh = yield* fetch
        const lifetimeSeconds = Math.max(0, fresh.expires_in - TOKEN_EXPIRY_MARGIN_SECONDS)
        tokens.set(key, { accessToken: fresh.access_token, usableUntilMillis: now + lifetimeSeconds * 1000 })
        return fresh.access_token
      }),
    /** Forgets `key`'s token (PayPal refused it). */
    drop: (key: string) => Effect.sync(() => void tokens.delete(key))
  }
}
export type TokenCache = ReturnType<typeof makeTokenCache>
