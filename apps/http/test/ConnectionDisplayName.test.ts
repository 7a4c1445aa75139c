import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `a provider connection's display_name on ${database.name}`,
    (it) => {
      it.scoped("is taken on create, shown on read, changed and cleared on update; the name never changes", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const send = (method: string, path: string, body?: object) =>
            raw(`${baseUrl}${path}`, {
              method,
              headers: json(secret, method === "GET" ? undefined : newKey()),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          const created = yield* send("POST", "/v1/provider-connections", {
            name: "stripe_eu_backup",
            type: "sandbox",
            display_name: "Acme Payments"
          })
          expect(created.status).toBe(201)
          expect(created.json).toMatchObject({ name: "stripe_eu_backup", display_name: "Acme Payments" })
          const path = `/v1/provider-connections/${created.json.id}`
          expect((yield* send("GET", path)).json.display_name).toBe("Acme Payments")

          const renamed = yield* send("PATCH", path, { display_name: "Acme Pay EU" })
          expect(renamed.json).toMatchObject({ name: "stripe_eu_backup", display_name: "Acme Pay EU" })
          const cleared = yield* send("PATCH", path, { display_name: null })
          expect(cleared.json.display_name).toBeNull()
          expect((yield* send("GET", path)).json.display_name).toBeNull()

          const plain = yield* send("POST", "/v1/provider-connections", { name: "plain", type: "sandbox" })
          expect(plain.json.display_name).toBeNull()
        }))

      it.scoped("refuses an empty or over-long display_name with a 400 naming it", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          for (const displayName of ["", "x".repeat(101)]) {
            const refused = yield* raw(`${baseUrl}/v1/provider-connections`, {
              method: "POST",
              headers: json(secret, newKey()),
              body: JSON.stringify({ name: "named", type: "sandbox", display_name: displayName })
            })
            expect(refused.status).toBe(400)
            expect(refused.json.error.param).toBe("display_name")
          }
        }))
    }
  )
}
