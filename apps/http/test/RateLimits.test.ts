import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

// The service's own defaults (decisions §13), not the test server's generous ones.
const [database] = testDatabases()

layer(serverLayer(database!.layer, { rateLimits: { live: 100, test: 25 } }), { excludeTestServices: true })(
  `rate limits per API key on ${database!.name}`,
  (it) => {
    // Exact counts under the default 25/s are the core's test (RateLimits, under TestClock); over HTTP,
    // on a shared machine, a low limit keeps the outcome independent of how fast requests are served.
    it.effect("a key over its limit gets 429 with the error body and Retry-After; other keys are unaffected", () =>
      Effect.gen(function*() {
        const { baseUrl, organization, secret } = yield* merchant()
        const other = yield* merchant()
        yield* (yield* Organizations).setRateLimits(organization.id, { test: 1 })
        const get = (key: string) => raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(key) })
        const answers = yield* Effect.all(Array.from({ length: 10 }, () => get(secret)), { concurrency: "unbounded" })
        const statuses = answers.map((answer) => answer.status)
        expect(statuses).toContain(200)
        const refused = answers.find((answer) => answer.status === 429)
        expect(refused).toBeDefined()
        expect(refused!.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" })
        expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        expect((yield* get(other.secret)).status).toBe(200)
        // A refused payment request charges nothing and keeps its Idempotency-Key free.
        const key = newKey()
        const payment = yield* raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: json(secret, key),
          body: JSON.stringify(paymentWith("tok_visa"))
        })
        if (payment.status === 429) expect(payment.json.error.type).toBe("rate_limit_error")
      }))

    it.effect("an organization's own limit applies to its keys", () =>
      Effect.gen(function*() {
        const { baseUrl, organization, secret } = yield* merchant()
        yield* (yield* Organizations).setRateLimits(organization.id, { test: 2 })
        const answers = yield* Effect.all(
          Array.from({ length: 12 }, () => raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(secret) })),
          { concurrency: "unbounded" }
        )
        // Two at once, then refusals: unless the twelve took seconds to be served, most are refused.
        const passed = answers.filter((answer) => answer.status === 200).length
        expect(passed).toBeGreaterThanOrEqual(2)
        expect(passed).toBeLessThan(12)
      }))
  }
)
