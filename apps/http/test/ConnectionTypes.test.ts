import { expect, layer } from "@effect/vitest"
import { Connectors } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const [database] = testDatabases()

layer(serverLayer(database!.layer), { excludeTestServices: true, timeout: "120 seconds" })("connection types in the OpenAPI document", (it) => {
  it.effect("name every type of the connector catalog exactly as the service accepts it, and no other", () =>
    Effect.gen(function*() {
      const { baseUrl, secret } = yield* merchant()
      const catalog = [...(yield* Connectors).types].sort()
      const document = (yield* raw(`${baseUrl}/v1/openapi.json`)).json
      const schemas = document.components.schemas
      expect([...schemas.CreateProviderConnection.properties.type.enum].sort()).toEqual(catalog)
      expect([...schemas.ProviderConnection.properties.type.enum].sort()).toEqual(catalog)
      // Where the prose names types, they are the catalog's, spelled the same.
      const prose = [
        schemas.CreateProviderConnection.properties.type.description,
        schemas.ProviderConnection.properties.type.description,
        document.paths["/v1/provider-connections"].post.description
      ]
      for (const text of prose) {
        const list = /(?:The PSP: |`type`: )([^.)]*)/.exec(String(text))?.[1] ?? ""
        expect([...list.matchAll(/`([^`]*)`/g)].map((match) => match[1]).sort()).toEqual(catalog)
      }
      // Each type the document names is accepted: the request gets past `type` (to its own settings and
      // credentials), and a type it does not name is refused.
      for (const type of catalog) {
        const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
          method: "POST",
          headers: json(secret),
          body: JSON.stringify({ name: `probe_${type.replace(/_/g, "-")}`, type })
        })
        expect({ type, refusedType: created.json.error?.param === "type" }).toEqual({ type, refusedType: false })
      }
      const unknown = yield* raw(`${baseUrl}/v1/provider-connections`, {
        method: "POST",
        headers: json(secret),
        body: JSON.stringify({ name: "probe_unknown", type: "checkoutcom" })
      })
      expect([unknown.status, unknown.json.error.param]).toEqual([422, "type"])
    }))
})
