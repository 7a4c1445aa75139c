import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const year = new Date().getUTCFullYear() + 3

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { rawCardData: () => true }), { excludeTestServices: true, timeout: "120 seconds" })(
    `a vaulted card's access log over HTTP on ${database.name}`,
    (it) => {
      const account = Effect.gen(function*() {
        const found = yield* merchant()
        const call = (method: string, path: string, body?: object) =>
          raw(`${found.baseUrl}${path}`, {
            method,
            headers: json(found.secret, path === "/v1/payments" ? newKey() : undefined),
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        return { ...found, call }
      })

      it.effect("lists every decryption newest first (purpose, payment, connection, time), paginated, to its organization only", () =>
        Effect.gen(function*() {
          const { call } = yield* account
          const created = yield* call("POST", "/v1/payment_methods", {
            type: "card",
            card: { number: "4242424242424242", exp_month: 12, exp_year: year, cvc: "123" }
          })
          const accesses = `/v1/payment_methods/${created.json.id}/accesses`
          expect((yield* call("GET", accesses)).json).toEqual({ object: "list", data: [], has_more: false, next_cursor: null })

          const pay = () => call("POST", "/v1/payments", { amount: 1200, currency: "EUR", payment_method: { type: "card", token: created.json.id } })
          const first = yield* pay()
          const second = yield* pay()
          expect([first.json.status, second.json.status]).toEqual(["succeeded", "succeeded"])

          const all = yield* call("GET", accesses)
          expect(all.status).toBe(200)
          expect(all.json.data.map((access: { payment_id: string }) => access.payment_id)).toEqual([second.json.id, first.json.id])
          expect(all.json.data[0]).toMatchObject({ object: "payment_method_access", purpose: "authorization", connection: second.json.provider })
          expect(all.json.data[0].id).toMatch(/^pmacc_\d+$/)
          expect(Date.parse(all.json.data[0].created_at)).toBeGreaterThanOrEqual(Date.parse(all.json.data[1].created_at))
          expect(all.text).not.toMatch(/4242424242424242|"123"/)

          const page = yield* call("GET", `${accesses}?limit=1`)
          expect([page.json.data.length, page.json.has_more, page.json.next_cursor]).toEqual([1, true, all.json.data[0].id])
          const next = yield* call("GET", `${accesses}?limit=1&starting_after=${page.json.next_cursor}`)
          expect([next.json.data[0].id, next.json.has_more]).toEqual([all.json.data[1].id, false])
          const badCursor = yield* call("GET", `${accesses}?starting_after=pay_nope`)
          expect([badCursor.status, badCursor.json.error.param]).toEqual([400, "starting_after"])
          for (const limit of ["0x10", "0", "101", "5.0"]) {
            const badLimit = yield* call("GET", `${accesses}?limit=${limit}`)
            expect([badLimit.status, badLimit.json.error.code, badLimit.json.error.param]).toEqual([400, "parameter_invalid", "limit"])
          }

          // Another organization's key, or an id that is none: 404, as for the card itself.
          const stranger = yield* account
          expect([(yield* stranger.call("GET", accesses)).status, (yield* stranger.call("GET", accesses)).json.error.code]).toEqual([404, "resource_missing"])
          expect((yield* call("GET", "/v1/payment_methods/pm_doesnotexist/accesses")).status).toBe(404)
        }))
    }
  )
}
