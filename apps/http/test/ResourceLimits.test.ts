import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

const statusCounts = (answers: ReadonlyArray<RawResponse>) =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})

/** `count` creations on `path`, `concurrency` at a time. */
const createMany = (baseUrl: string, secret: string, path: string, count: number, body: (i: number) => object, concurrency: number) =>
  Effect.all(
    Array.from({ length: count }, (_, i) => raw(`${baseUrl}${path}`, { method: "POST", headers: json(secret), body: JSON.stringify(body(i)) })),
    { concurrency }
  )

const expectLimitError = (answer: RawResponse, limit: string) => {
  expect(answer.status).toBe(422)
  expect(answer.json.error).toMatchObject({ type: "invalid_request_error", code: "resource_limit_exceeded", param: null })
  expect(answer.json.error.message).toContain(limit)
  expect(answer.json.error.request_id).toBe(answer.headers.get("request-id"))
}

// On PostgreSQL too: there the racing creations really run at once.
for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "300 seconds" })(
    `limits per organization on ${database.name}`,
    (it) => {
      it.effect("200 routing rules per mode: creations racing for the last places get exactly the room left", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const rule = (i: number) => ({ priority: i, conditions: { currency: ["EUR"] }, action: { provider: "sandbox_b" } })
          const first = yield* createMany(baseUrl, secret, "/v1/routing-rules", 190, rule, 4)
          expect(statusCounts(first)).toEqual({ 201: 190 })
          const racing = yield* createMany(baseUrl, secret, "/v1/routing-rules", 30, rule, 30)
          expect(statusCounts(racing)).toEqual({ 201: 10, 422: 20 })
          expectLimitError(racing.find((answer) => answer.status === 422)!, "limit of 200 routing rules")

          // The dry run lists every rule; with the cap its answer is bounded (144 KB with 1 000 rules before).
          const dryRun = yield* raw(`${baseUrl}/v1/routing-rules/evaluate`, {
            method: "POST",
            headers: json(secret),
            body: JSON.stringify({ amount: 2000, currency: "USD", payment_method: { type: "card" } })
          })
          expect(dryRun.status).toBe(200)
          expect(dryRun.json.candidates.length).toBeLessThanOrEqual(201)
          expect(dryRun.text.length).toBeLessThan(64 * 1024)

          // Deleting one makes room for one.
          const some = (yield* raw(`${baseUrl}/v1/routing-rules?limit=1`, { headers: json(secret) })).json.data[0]
          expect((yield* raw(`${baseUrl}/v1/routing-rules/${some.id}`, { method: "DELETE", headers: json(secret) })).status)
            .toBe(200)
          expect(statusCounts(yield* createMany(baseUrl, secret, "/v1/routing-rules", 2, rule, 1))).toEqual({ 201: 1, 422: 1 })
        }))

      it.effect("16 webhook endpoints per mode", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const endpoint = (i: number) => ({ url: `https://shop.example/hooks/${i}` })
          const answers = yield* createMany(baseUrl, secret, "/v1/webhooks/endpoints", 20, endpoint, 20)
          expect(statusCounts(answers)).toEqual({ 201: 16, 422: 4 })
          expectLimitError(answers.find((answer) => answer.status === 422)!, "limit of 16 webhook endpoints")
          const listed = yield* raw(`${baseUrl}/v1/webhooks/endpoints?limit=100`, { headers: json(secret) })
          expect(listed.json.data).toHaveLength(16)
          // Another organization is not touched by this one's endpoints.
          const other = yield* merchant()
          expect((yield* createMany(other.baseUrl, other.secret, "/v1/webhooks/endpoints", 1, endpoint, 1))[0]!.status).toBe(201)
        }))

      it.effect("50 provider connections per mode, the two sandbox starters included", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const connection = (i: number) => ({ name: `sandbox_${i}`, type: "sandbox" })
          const answers = yield* createMany(baseUrl, secret, "/v1/provider-connections", 52, connection, 8)
          expect(statusCounts(answers)).toEqual({ 201: 48, 422: 4 })
          expectLimitError(answers.find((answer) => answer.status === 422)!, "limit of 50 provider connections")
        }))
    }
  )
}
