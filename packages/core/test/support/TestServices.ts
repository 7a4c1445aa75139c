import { CoreSecrets, CoreServices } from "@orchestrator/core/CoreServices"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { StorageMemory } from "@orchestrator/core/memory/StorageMemory"
import { RateLimiter } from "@orchestrator/core/limits/RateLimiter"
import { PublicBaseUrl } from "@orchestrator/core/ports/PublicBaseUrl"
import { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { Effect, Layer } from "effect"
import { makeScriptedConnector, type Script } from "./ScriptedConnector.js"
import { makeScriptedReceiver } from "./ScriptedReceiver.js"

/** The core's services on in-memory storage, a scripted PSP and a scripted webhook receiver. */
export const makeTestServices = (scripts: Record<string, ReadonlyArray<Script>> = {}) => {
  const psp = makeScriptedConnector(scripts)
  const receiver = makeScriptedReceiver()
  const layer = CoreServices.pipe(
    Layer.provideMerge(psp.layer),
    Layer.provideMerge(CoreSecrets),
    Layer.provideMerge(StorageMemory),
    Layer.provideMerge(receiver.layer),
    Layer.provideMerge(RateLimiter.layerLocal),
    Layer.provideMerge(Layer.succeed(PublicBaseUrl, "http://orchestrator.test")),
    Layer.provideMerge(KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(7)))
  )
  return { psp, receiver, layer }
}

let tenants = 0

/** A new organization's test mode; names are unique, so each is numbered. */
export const createTenant = Effect.gen(function*() {
  const organization = yield* (yield* Organizations).create(`Acme ${++tenants}`)
  return { organizationId: organization.id, livemode: false } satisfies Tenant
})
