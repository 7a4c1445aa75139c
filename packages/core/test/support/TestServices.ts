import { Effect, Layer } from "effect"
import { CoreMemory } from "../../src/composition/CoreLive.js"
import type { Tenant } from "../../src/domain/Tenant.js"
import { Organizations } from "../../src/features/tenancy/Organizations.js"
import { KeyMaterial } from "../../src/ports/KeyMaterial.js"
import { PublicUrls } from "../../src/ports/PublicUrls.js"
import { makeScriptedConnector, type Script } from "./ScriptedConnector.js"
import { makeScriptedReceiver } from "./ScriptedReceiver.js"

/** Public addresses as a host would give them (the tests' own, so nothing depends on the HTTP shell's). */
export const publicUrlsAt = (base: string): PublicUrls["Type"] => ({
  base,
  paymentReturn: (paymentId, token) => `${base}/v1/payments/${paymentId}/return?token=${token}`,
  providerWebhook: (connectionId) => `${base}/v1/provider-webhooks/${connectionId}`,
  checkoutPage: (sessionId) => `${base}/checkout/${sessionId}`
})

/** The core's services on in-memory storage, a scripted PSP and a scripted webhook receiver. */
export const makeTestServices = (scripts: Record<string, ReadonlyArray<Script>> = {}) => {
  const psp = makeScriptedConnector(scripts)
  const receiver = makeScriptedReceiver()
  const layer = CoreMemory.pipe(
    Layer.provideMerge(psp.layer),
    Layer.provideMerge(receiver.layer),
    Layer.provideMerge(Layer.succeed(PublicUrls, publicUrlsAt("http://orchestrator.test"))),
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
