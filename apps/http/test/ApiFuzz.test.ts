import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import fc from "fast-check"
import { caller, createObjects } from "./support/ObjectFixtures.js"
import { openApiDocument, type Operation, operationsOf } from "./support/OpenApiArbitraries.js"
import { type FuzzContext, type FuzzRequest, requestsFor } from "./support/OpenApiRequests.js"
import { responseContract } from "./support/ResponseContract.js"
import { SecretScan } from "./support/SecretScan.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/**
 * Property-based requests from the OpenAPI document, for every operation it declares, sent over HTTP
 * to the running service: valid ones and mutated bodies, headers, query strings and path ids. Every
 * answer must be below 500, declared for its operation, match the schema declared for its status,
 * and carry the error body when it is a failure.
 *
 *   FUZZ_RUNS=200 FUZZ_SEED=7 pnpm -s vitest run apps/http/test/ApiFuzz.test.ts
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30)
const SEED = Number(process.env.FUZZ_SEED ?? 20261101)

const document = openApiDocument()
/** Deletions last, so the other operations still find the objects they are given. */
const operations = operationsOf(document).sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"))
const nameOf = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`

/** A seed per operation, so adding an operation does not change what the others try. */
const seedOf = (operation: Operation) => {
  let hash = SEED | 0
  for (const char of nameOf(operation)) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return hash
}

/** A webhook endpoint's signing secret belongs in its creation and rotation answers, and nowhere else. */
const allowedWhere = (where: string, kind: string) =>
  kind === "webhook_secret" && /^POST \/v1\/webhooks\/endpoints(\/[^/ ]+\/rotate-secret)? → 20\d\b/.test(where) ||
  // A checkout session's client secret is shown to the server key, in the session's own answers.
  (kind === "client_secret" && /^(POST|GET) \/v1\/checkout\/sessions(\/cs_[^/ ?]+|\/\{id\})?(\?[^ ]*)? → 20\d\b/.test(where))

const logs: Array<string> = []

const send = async (baseUrl: string, request: FuzzRequest) => {
  const response = await fetch(`${baseUrl}${request.target}`, {
    method: request.method,
    headers: request.headers,
    redirect: "manual",
    // A request that hangs fails with its own description rather than the whole operation timing out.
    signal: AbortSignal.timeout(20_000),
    ...(request.body === undefined ? {} : { body: typeof request.body === "string" ? request.body : Buffer.from(request.body) })
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const preview = (body: FuzzRequest["body"]) =>
  body === undefined ? "(none)" : typeof body === "string" ? JSON.stringify(body.slice(0, 300)) : `${body.length} bytes`

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs, rawCardData: () => true }), { excludeTestServices: true, timeout: "600 seconds" })(
    `fuzzing every operation of the OpenAPI document on ${database.name}`,
    (it) => {
      const scan = new SecretScan()
      const contract = responseContract(document)
      const tried = new Map<string, number>()
      const statuses = new Map<number, number>()
      let context: (FuzzContext & { readonly baseUrl: string }) | undefined = undefined

      /** One merchant with one of every object, made once for the whole suite. */
      const setUp = Effect.suspend(() =>
        context !== undefined ? Effect.succeed(context) : Effect.gen(function*() {
          const { baseUrl, organization, secret } = yield* merchant()
          const live = yield* (yield* Organizations).createKey(organization.id, true)
          scan.secret("api_key", secret)
          scan.secret("api_key", live.secret)
          const call = caller(baseUrl, secret, scan)
          const objects = yield* createObjects(call, scan)
          const connections = (yield* call("/v1/provider-connections")).json.data as Array<{ id: string; name: string }>
          const ids = { ...objects.ids, provider_connection: connections.map((connection) => connection.id) }
          context = {
            baseUrl,
            document,
            testKey: secret,
            liveKey: live.secret,
            objects: { ...objects, ids },
            providers: connections.map((connection) => connection.name)
          }
          console.log(`API fuzz: seed ${SEED} (FUZZ_SEED), ${RUNS} runs per operation (FUZZ_RUNS), ${operations.length} operations`)
          return context
        })
      )

      /**
       * Secrets the requests carried (the recognisable ones the hints make): a PSP credential must
       * never come back, even in a refusal.
       */
      const noteSecrets = (request: FuzzRequest) => {
        if (typeof request.body !== "string") return
        for (const [value] of request.body.matchAll(/cred_fuzz_[0-9a-f]+/g)) scan.secret("psp_credential", value)
        for (const [value] of request.body.matchAll(/pspwh_fuzz_[0-9a-f]+/g)) scan.secret("psp_webhook_secret", value)
      }

      for (const operation of operations) {
        it.effect(`${nameOf(operation)}: no 5xx, every answer as documented`, () =>
          Effect.gen(function*() {
            const { baseUrl, ...fuzz } = yield* setUp
            const requests = requestsFor(operation, { ...fuzz })
            yield* Effect.promise(() =>
              fc.assert(
                fc.asyncProperty(requests, async (request) => {
                  noteSecrets(request)
                  const response = await send(baseUrl, request).catch((error: unknown) => {
                    throw new Error(
                      `${request.label}: ${request.method} ${request.target.slice(0, 300)}\n` +
                        `request body: ${preview(request.body)}\nno answer: ${String(error)}`
                    )
                  })
                  tried.set(nameOf(operation), (tried.get(nameOf(operation)) ?? 0) + 1)
                  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
                  const where = `${operation.method.toUpperCase()} ${operation.path} → ${response.status}`
                  scan.saw(where, response.text)
                  scan.saw(`${where} (headers)`, JSON.stringify([...response.headers]))
                  try {
                    const answer = JSON.parse(response.text)
                    if (answer?.object === "webhook_endpoint" && typeof answer.secret === "string") {
                      scan.secret("webhook_secret", answer.secret)
                    }
                  } catch {
                    // Not JSON: the contract says whether it should have been.
                  }
                  const problems = [
                    ...contract(operation, response),
                    ...(request.expectStatus === undefined || request.expectStatus === response.status
                      ? []
                      : [`expected ${request.expectStatus} for this request, got ${response.status}`])
                  ]
                  if (problems.length > 0) {
                    throw new Error(
                      `${request.label}: ${request.method} ${request.target.slice(0, 300)}\n` +
                        `request body: ${preview(request.body)}\n` +
                        `answer: ${response.status} ${response.text.slice(0, 600)}\n` +
                        problems.map((problem) => `  - ${problem}`).join("\n")
                    )
                  }
                }),
                // No shrinking: each step is a request to a shared server, and the first failure says enough.
                { numRuns: RUNS, seed: seedOf(operation), endOnFailure: true }
              )
            )
          }))
      }

      it.effect("tried every operation of the document", () =>
        Effect.sync(() => {
          const total = [...tried.values()].reduce((sum, count) => sum + count, 0)
          console.log(
            `API fuzz: ${total} requests over ${tried.size} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`
          )
          expect([...tried.keys()].sort()).toEqual(operations.map(nameOf).sort())
          // Valid requests got through to the handlers, not only to the validation.
          expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0)
        }))

      it.effect("no API key, PSP credential, webhook secret or card number in any answer, log line or event", () =>
        Effect.gen(function*() {
          const { baseUrl, testKey } = yield* setUp
          // The events and deliveries the fuzzing wrote, every page of them.
          for (const collection of ["/v1/events", "/v1/webhooks/deliveries"]) {
            let cursor: string | null = null
            do {
              const page: RawResponse = yield* raw(`${baseUrl}${collection}?limit=100${cursor === null ? "" : `&starting_after=${cursor}`}`, {
                headers: { authorization: `Bearer ${testKey}` }
              })
              scan.saw(`GET ${collection}`, page.text)
              cursor = page.json.next_cursor
            } while (cursor !== null)
          }
          logs.forEach((line, index) => scan.saw(`log line ${index}`, line))
          expect(scan.secretCount).toBeGreaterThan(4)
          expect(scan.findings(allowedWhere)).toEqual([])
        }))
    }
  )
}
