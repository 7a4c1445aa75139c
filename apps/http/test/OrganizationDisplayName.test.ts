import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { sessionBody } from "./support/CheckoutFixtures.js"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `an organization's display_name on ${database.name}`,
    (it) => {
      it.scoped("is its name until set, per mode; a new checkout session carries it for the shopper; null gives the name back", () =>
        Effect.gen(function*() {
          const { baseUrl, organization, secret } = yield* merchant()
          const send = (method: string, path: string, body?: object, key = secret) =>
            raw(`${baseUrl}${path}`, {
              method,
              headers: json(key, method === "GET" ? undefined : newKey()),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          expect((yield* send("GET", "/v1/organization")).json.display_name).toBe(organization.name)

          const named = yield* send("PATCH", "/v1/organization", { display_name: "Acme Shop" })
          expect([named.status, named.json.display_name, named.json.name]).toEqual([200, "Acme Shop", organization.name])
          expect((yield* send("GET", "/v1/organization")).json.display_name).toBe("Acme Shop")
          const session = yield* send("POST", "/v1/checkout/sessions", sessionBody)
          expect(session.json.ui.merchant_name).toBe("Acme Shop")
          // The shopper's view (the client secret) carries it too.
          const shopper = yield* raw(`${baseUrl}/v1/checkout/sessions/${session.json.id}`, {
            headers: { "service-client-secret": session.json.client_secret }
          })
          expect(shopper.json.ui.merchant_name).toBe("Acme Shop")

          const cleared = yield* send("PATCH", "/v1/organization", { display_name: null })
          expect(cleared.json.display_name).toBe(organization.name)
        }))

      it.scoped("a test key's display name is not what live shoppers see", () =>
        Effect.gen(function*() {
          const { baseUrl, organization, secret } = yield* merchant()
          const live = (yield* (yield* Organizations).createKey(organization.id, true)).secret
          const patched = yield* raw(`${baseUrl}/v1/organization`, {
            method: "PATCH",
            headers: json(secret, newKey()),
            body: JSON.stringify({ display_name: "Acme Test Shop" })
          })
          expect([patched.status, patched.json.livemode]).toEqual([200, false])
          expect((yield* raw(`${baseUrl}/v1/organization`, { headers: json(live) })).json).toMatchObject({
            livemode: true,
            display_name: organization.name
          })
        }))

      it.scoped("refuses an empty or over-long display_name with a 400 naming it", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          for (const displayName of ["", "x".repeat(101), 42]) {
            const refused = yield* raw(`${baseUrl}/v1/organization`, {
              method: "PATCH",
              headers: json(secret, newKey()),
              body: JSON.stringify({ display_name: displayName })
            })
            expect(refused.status).toBe(400)
            expect(refused.json.error.param).toBe("display_name")
          }
        }))
    }
  )
}
