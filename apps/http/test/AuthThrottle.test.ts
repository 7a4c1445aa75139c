import { describe, expect, it } from "@effect/vitest"
import { parseTrustedProxies, type TrustedProxyList } from "@orchestrator/application"
import { testDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { TrustedProxies } from "../src/ClientAddress.js"
import { checkoutSetup } from "./support/CheckoutFixtures.js"
import { json } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const [database] = testDatabases()

// The service's burst of 20; one failure back every 30 s rather than every 3 s, so that however slowly
// a shared machine serves these requests, none is given back during a test (the 3 s refill is the
// core's test, under TestClock).
const limit = { count: 20, periodMs: 600_000 }

/** A well-formed key that no organization has. */
const unknownKey = () => `sk_test_${Array.from({ length: 32 }, () => "abcdefghij"[Math.floor(Math.random() * 10)]).join("")}`

const list = (baseUrl: string, key: string, forwardedFor?: string) =>
  raw(`${baseUrl}/v1/payments?limit=1`, {
    headers: { ...json(key), ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }) }
  })

const trusted = (setting: string) => parseTrustedProxies(setting) as TrustedProxyList

const statusCounts = (answers: ReadonlyArray<{ readonly status: number }>) =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})

describe("failed authentication throttled per client address", () => {
  it.live("200 unknown keys at once: 20 answered 401, the rest 429 with Retry-After, and then the address waits", () =>
    Effect.gen(function*() {
      const { baseUrl, secret } = yield* merchant()
      // Successes are not counted.
      const good = yield* Effect.all(Array.from({ length: 40 }, () => list(baseUrl, secret)), { concurrency: 8 })
      expect(statusCounts(good)).toEqual({ 200: 40 })

      const answers = yield* Effect.all(Array.from({ length: 200 }, () => list(baseUrl, unknownKey())), {
        concurrency: "unbounded"
      })
      expect(statusCounts(answers)).toEqual({ 401: 20, 429: 180 })
      for (const refused of answers.filter((answer) => answer.status === 429)) {
        expect(refused.json.error).toMatchObject({
          type: "rate_limit_error",
          code: "too_many_failed_authentications",
          param: null
        })
        expect(refused.json.error.request_id).toBe(refused.headers.get("request-id"))
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(30)
      }
      // A forged X-Forwarded-For changes nothing: no proxy is trusted.
      expect((yield* list(baseUrl, unknownKey(), "198.51.100.77")).status).toBe(429)
      // Refused before any key is looked at: a good key from this address waits too, so trying keys
      // tells nothing; requests without a key are refused alike.
      const afterwards = yield* list(baseUrl, secret)
      expect([afterwards.status, afterwards.json.error.code]).toEqual([429, "too_many_failed_authentications"])
      expect((yield* raw(`${baseUrl}/v1/payments`)).status).toBe(429)
    }).pipe(Effect.scoped, Effect.provide(Layer.fresh(serverLayer(database!.layer, { failedAuthentications: limit })))), 120_000)

  it.live("a missing key is not a failed attempt; a wrong client secret is, and the checkout page counts alike", () =>
    Effect.gen(function*() {
      const { baseUrl, browser, session } = yield* checkoutSetup()
      const missing = yield* Effect.all(Array.from({ length: 40 }, () => raw(`${baseUrl}/v1/payments`)), { concurrency: 8 })
      expect(statusCounts(missing)).toEqual({ 401: 40 })
      expect(missing[0]!.json.error.code).toBe("api_key_missing")

      const wrong = `${session.id}_secret_${"0".repeat(32)}`
      const byBrowser = yield* Effect.all(
        Array.from({ length: 25 }, () => browser(`/v1/checkout/sessions/${session.id}`, { clientSecret: wrong })),
        { concurrency: 1 }
      )
      expect(byBrowser.map((answer) => answer.status)).toEqual([...Array(20).fill(401), ...Array(5).fill(429)])
      expect((yield* browser(`/v1/checkout/sessions/${session.id}`)).status).toBe(429)
    }).pipe(Effect.scoped, Effect.provide(Layer.fresh(serverLayer(database!.layer, { failedAuthentications: limit })))), 120_000)

  it.live("behind a trusted proxy each client is counted by the address the proxy saw", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* merchant()
      const fromAttacker = yield* Effect.all(Array.from({ length: 21 }, () => list(baseUrl, unknownKey(), "203.0.113.66")))
      expect(statusCounts(fromAttacker)).toEqual({ 401: 20, 429: 1 })
      // The next client through the same proxy is not blocked with the attacker.
      expect((yield* list(baseUrl, unknownKey(), "198.51.100.12")).status).toBe(401)
      // A client writing its own header in front of the proxy's entry does not escape its count.
      expect((yield* list(baseUrl, unknownKey(), "192.0.2.1, 203.0.113.66")).status).toBe(429)
      // Nor behind a second proxy of the operator's (a CDN in 10/8, then this one).
      expect((yield* list(baseUrl, unknownKey(), "192.0.2.9, 203.0.113.66, 10.4.0.7")).status).toBe(429)
    }).pipe(
      Effect.scoped,
      Effect.provide(
        Layer.fresh(serverLayer(database!.layer, { failedAuthentications: limit })).pipe(
          Layer.provide(Layer.succeed(TrustedProxies, trusted("127.0.0.1, 10.0.0.0/8")))
        )
      )
    ), 120_000)

  it.live("a peer that is not one of the operator's proxies cannot name its own address in X-Forwarded-For", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* merchant()
      // 40 guesses, each claiming another address: all count against the socket's peer.
      const rotated = yield* Effect.all(Array.from({ length: 40 }, (_, at) => list(baseUrl, unknownKey(), `198.51.100.${at + 1}`)))
      expect(statusCounts(rotated)).toEqual({ 401: 20, 429: 20 })
    }).pipe(
      Effect.scoped,
      Effect.provide(
        Layer.fresh(serverLayer(database!.layer, { failedAuthentications: limit })).pipe(
          Layer.provide(Layer.succeed(TrustedProxies, trusted("10.0.0.0/8, fd00::/8")))
        )
      )
    ), 120_000)
})
