import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { testDatabases } from "@orchestrator/testing/TestDatabases"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

// The service's own defaults (decisions §13), not the test server's generous ones.
const [database] = testDatabases()

layer(serverLayer(database!.layer, { rateLimits: { live: 100, test: 25 } }), { excludeTestServices: true })(
  `rate limits per API key on ${database!.name}`,
  (it) => {
    it.effect("a test key gets 25 requests a second, then 429 with Retry-After; other keys are unaffected", () =>
      Effect.gen(function*() {
        const { baseUrl, secret } = yield* merchant()
        const other = yield* merchant()
        const get = (key: string) => raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(key) })
        const answers = yield* Effect.all(Array.from({ length: 60 }, () => get(secret)), { concurrency: 20 })
        const statuses = answers.map((answer) => answer.status)
        // The burst is 25; a few more may pass as the budget refills while the requests are served.
        expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(25)
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
          Array.from({ length: 4 }, () => raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(secret) })),
          { concurrency: 1 }
        )
        expect(answers.map((answer) => answer.status).slice(0, 3)).toEqual([200, 200, 429])
      }))
  }
)
