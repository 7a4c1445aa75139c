import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { type Caller, caller, createObjects, type MerchantObjects, type ObjectKind, objectKindOf } from "./support/ObjectFixtures.js"
import { openApiDocument, type Operation, operationsOf, parametersOf } from "./support/OpenApiArbitraries.js"
import { SecretScan } from "./support/SecretScan.js"
import { merchant, type RawResponse, serverLayer } from "./support/TestServer.js"

const document = openApiDocument()
const operations = operationsOf(document)
const nameOf = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`

/**
 * Operations with an id in the path that take no API key, and what protects them instead. Any other
 * operation with an id in its path must be mapped to a fixture by `objectKindOf`.
 */
const KEYLESS: Record<string, string> = {
  "GET /v1/payments/{id}/return": "the customer's browser coming back from 3D Secure, with the token signed into the URL given to the PSP (404 without it)",
  "POST /v1/provider-webhooks/{connection_id}": "a PSP's webhook, verified with the connection's own webhook secret"
}

/** Bodies for the endpoints whose body has required fields; every other endpoint is sent `{}`. */
const VALID_BODIES: Record<string, object> = {
  "POST /v1/checkout/sessions/{id}/confirm": { payment_method: { type: "card", token: "tok_visa" } },
  "POST /v1/test_helpers/test_clocks/{id}/advance": { frozen_time: "2031-01-01T00:00:00.000Z" }
}

/** What lists show A's objects to the other keys: none of A's ids, ever. */
const allIds = (objects: MerchantObjects) => Object.values(objects.ids).flat()

/** A webhook endpoint's signing secret belongs in its creation and rotation answers, and nowhere else. */
const allowedWhere = (where: string, kind: string) =>
  kind === "webhook_secret" && /^POST \/v1\/webhooks\/endpoints(\/[^/ ]+\/rotate-secret)? → 20\d\b/.test(where) ||
  // A checkout session's client secret is shown to the server key, in the session's own answers.
  (kind === "client_secret" && /^(POST|GET) \/v1\/checkout\/sessions(\/cs_[^/ ?]+)?(\?[^ ]*)? → 20\d\b/.test(where))

const logs: Array<string> = []

const sign = (secret: string, body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs, rawCardData: () => true }), { excludeTestServices: true, timeout: "300 seconds" })(
    `isolation between organizations and modes, and secrets, on ${database.name}`,
    (it) => {
      const scan = new SecretScan()
      interface World {
        readonly baseUrl: string
        /** Merchant A in test mode, its objects, and how they looked before anyone else tried them. */
        readonly a: Caller
        readonly objects: MerchantObjects
        readonly before: Map<string, string>
        /** Keys that must see nothing of A's test objects: another organization's, and A's own live key. */
        readonly strangers: ReadonlyArray<readonly [string, Caller]>
        readonly other: MerchantObjects
      }
      let world: World | undefined = undefined

      const pathOf = (kind: ObjectKind, id: string) => {
        const operation = operations.find((each) =>
          each.method === "get" && parametersOf(each, "path").length === 1 &&
          objectKindOf(each.path, parametersOf(each, "path")[0].name) === kind && each.path.endsWith("}")
        )
        return operation!.path.replace(/\{[^}]+\}/, id)
      }

      /** Every object of A as A reads it, by id. */
      const snapshot = (a: Caller, objects: MerchantObjects) =>
        Effect.gen(function*() {
          const seen = new Map<string, string>()
          for (const [kind, ids] of Object.entries(objects.ids) as Array<[ObjectKind, ReadonlyArray<string>]>) {
            for (const id of ids) seen.set(id, (yield* a(pathOf(kind, id))).text)
          }
          return seen
        })

      const setUp = Effect.suspend(() =>
        world !== undefined ? Effect.succeed(world) : Effect.gen(function*() {
          const organizations = yield* Organizations
          const first = yield* merchant()
          const second = yield* merchant()
          const live = yield* organizations.createKey(first.organization.id, true)
          for (const secret of [first.secret, second.secret, live.secret]) scan.secret("api_key", secret)
          const a = caller(first.baseUrl, first.secret, scan)
          const b = caller(first.baseUrl, second.secret, scan)
          const objects = yield* createObjects(a, scan)
          const other = yield* createObjects(b, scan)
          world = {
            baseUrl: first.baseUrl,
            a,
            objects,
            other,
            before: yield* snapshot(a, objects),
            strangers: [["another organization's key", b], ["the live key", caller(first.baseUrl, live.secret, scan)]]
          }
          return world
        })
      )

      /** Bodies with required fields, for the operations whose body cannot be empty. */
      /** The 404 a stranger gets: the error body, nothing of the object, and never a 403. */
      const expectNotFound = (response: RawResponse, what: string, objects: MerchantObjects, id: string) => {
        expect({ what, status: response.status }).toEqual({ what, status: 404 })
        expect(Object.keys(response.json)).toEqual(["error"])
        expect(response.json.error).toMatchObject({ type: "invalid_request_error", request_id: response.headers.get("request-id") })
        expect(Object.keys(response.json.error).sort()).toEqual(["code", "message", "param", "request_id", "type"])
        // The id asked for may be named; no other id of A's (the payment of a refund, say) may be.
        for (const other of allIds(objects)) if (other !== id) expect(response.text).not.toContain(other)
      }

      it.effect("every operation with an id in its path answers 404 to another organization and to the other mode", () =>
        Effect.gen(function*() {
          const { objects, strangers } = yield* setUp
          const withIds = operations.filter((operation) => parametersOf(operation, "path").length > 0)
          const unmapped = withIds.filter((operation) =>
            KEYLESS[nameOf(operation)] === undefined &&
            parametersOf(operation, "path").some((parameter) => objectKindOf(operation.path, parameter.name) === undefined)
          )
          // A new endpoint with an id gets a fixture (ObjectFixtures) before it ships.
          expect(unmapped.map(nameOf)).toEqual([])
          let tried = 0
          for (const operation of withIds) {
            if (KEYLESS[nameOf(operation)] !== undefined) continue
            const [parameter] = parametersOf(operation, "path")
            const kind = objectKindOf(operation.path, parameter.name)!
            // Every state of the object: a payment that succeeded, one waiting for capture, for 3DS, one failed.
            for (const id of objects.ids[kind].slice(0, 5)) {
              const path = operation.path.replace(`{${parameter.name}}`, id)
              const takesBody = operation.spec.requestBody !== undefined
              // A body the endpoint takes, so that only the id can be what is refused.
              const body = VALID_BODIES[nameOf(operation)] ?? {}
              for (const [who, stranger] of strangers) {
                const response = yield* stranger(path, { method: operation.method.toUpperCase(), ...(takesBody ? { body } : {}) })
                expectNotFound(response, `${nameOf(operation)} with ${who}`, objects, id)
                tried++
              }
            }
          }
          expect(tried).toBeGreaterThan(2 * withIds.length)
        }))

      it.effect("lists, filters and cursors with another organization's or mode's key never show A's objects", () =>
        Effect.gen(function*() {
          const { objects, strangers } = yield* setUp
          const lists = operations.filter((operation) =>
            operation.method === "get" && parametersOf(operation, "path").length === 0 &&
            operation.spec.responses["200"]?.content?.["application/json"]?.schema?.$ref?.endsWith("List")
          )
          expect(lists.length).toBeGreaterThanOrEqual(7)
          for (const operation of lists) {
            const kind = objectKindOf(`${operation.path}/{id}`, "id")!
            // Plain, filtered by one of A's ids where the list takes one, and paged after one of A's.
            const queries = [
              "",
              ...parametersOf(operation, "query").filter((parameter) => parameter.name.endsWith("_id")).map((parameter) => {
                const filtered = parameter.name === "payment_id" ? "payment" : parameter.name === "endpoint_id" ? "webhook_endpoint" : kind
                return `?${parameter.name}=${objects.ids[filtered]?.[0] ?? ""}`
              }),
              `?starting_after=${objects.ids[kind][0]}`
            ]
            for (const query of queries) {
              for (const [who, stranger] of strangers) {
                const response = yield* stranger(`${operation.path}${query}`)
                const what = `${nameOf(operation)}${query} with ${who}`
                expect({ what, status: response.status }).toEqual({ what, status: query.startsWith("?starting_after") ? 400 : 200 })
                // An id the caller gave may be named back (an unknown cursor); no other of A's.
                for (const id of allIds(objects)) if (!query.includes(id)) expect(response.text).not.toContain(id)
              }
            }
          }
        }))

      it.effect("bodies naming A's objects reach nothing of A's", () =>
        Effect.gen(function*() {
          const { objects, strangers } = yield* setUp
          for (const [who, stranger] of strangers) {
            const resent = yield* stranger("/v1/webhooks/deliveries/resend", { body: { endpoint_id: objects.ids.webhook_endpoint[0] } })
            expect({ who, status: resent.status, queued: resent.json.queued ?? 0 }).toMatchObject({ who, queued: 0 })
            const paid = yield* stranger("/v1/payments", {
              body: { amount: 100, currency: "EUR", provider: objects.connectionName, payment_method: { type: "card", token: "tok_visa" } }
            })
            expect({ who, status: paid.status }).toEqual({ who, status: 422 })
            const ruled = yield* stranger("/v1/routing-rules", {
              body: { priority: 1, conditions: {}, action: { provider: objects.connectionName } }
            })
            expect({ who, status: ruled.status }).toEqual({ who, status: 422 })
          }
        }))

      it.effect("a PSP webhook for A's connection signed with another organization's secret is refused", () =>
        Effect.gen(function*() {
          const { baseUrl, objects, other } = yield* setUp
          const body = JSON.stringify({ id: "evt_forged", type: "charge.updated", created: 1, data: {} })
          for (const secret of [other.pspWebhookSecret, "whsec_guess"]) {
            const response = yield* caller(baseUrl, "none", scan)(`/v1/provider-webhooks/${objects.ids.provider_connection[0]}`, {
              body: JSON.parse(body)
            })
            expect(response.status).toBe(400)
            const signed = yield* Effect.promise(() =>
              fetch(`${baseUrl}/v1/provider-webhooks/${objects.ids.provider_connection[0]}`, {
                method: "POST",
                headers: { "content-type": "application/json", "service-signature": sign(secret, body) },
                body
              }).then(async (answer) => ({ status: answer.status, text: await answer.text() }))
            )
            scan.saw("POST /v1/provider-webhooks/{connection_id} (forged)", signed.text)
            expect(signed.status).toBe(400)
          }
        }))

      it.effect("after all of it, A's objects are exactly as they were", () =>
        Effect.gen(function*() {
          const { a, before, objects } = yield* setUp
          const after = yield* snapshot(a, objects)
          for (const [id, text] of before) expect({ id, text: after.get(id) }).toEqual({ id, text })
        }))

      it.effect("a card number sent as a token is refused, so it is never stored, echoed or sent to a PSP", () =>
        Effect.gen(function*() {
          const { a } = yield* setUp
          for (const token of ["4242424242424242", "4000 0000 0000 0002", "5555-5555-5555-4444"]) {
            const refused = yield* a("/v1/payments", {
              body: { amount: 100, currency: "EUR", payment_method: { type: "card", token } }
            })
            expect([refused.status, refused.json.error.param]).toEqual([400, "payment_method.token"])
          }
          // Digits that are not a card number (no valid checksum) are only an unknown token.
          const unknown = yield* a("/v1/payments", {
            body: { amount: 100, currency: "EUR", payment_method: { type: "card", token: "4242424242424241" } }
          })
          expect(unknown.status).toBe(402)
        }))

      it.effect("no API key, PSP credential, webhook secret or card number in any answer, log line or event", () =>
        Effect.gen(function*() {
          const { a, strangers } = yield* setUp
          for (const call of [a, ...strangers.map(([, stranger]) => stranger)]) {
            for (const collection of ["/v1/events", "/v1/webhooks/deliveries"]) {
              let cursor: string | null = null
              do {
                const page: RawResponse = yield* call(`${collection}?limit=100${cursor === null ? "" : `&starting_after=${cursor}`}`)
                cursor = page.json.next_cursor
              } while (cursor !== null)
            }
          }
          logs.forEach((line, index) => scan.saw(`log line ${index}`, line))
          expect(scan.size).toBeGreaterThan(100)
          expect(scan.findings(allowedWhere)).toEqual([])
        }))
    }
  )
}
