import { describe, expect, it } from "@effect/vitest"
import { testConnection } from "@orchestrator/testing"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { CoreMemory } from "../src/composition/CoreLive.js"
import type { Currency } from "../src/domain/Currency.js"
import { AuthorizationOutcome, WebhookRejected } from "../src/domain/providers/ConnectorOutcomes.js"
import { ProviderConnection } from "../src/domain/providers/ProviderConnection.js"
import { ConnectionSecrets } from "../src/features/connections/ConnectionSecrets.js"
import { ConnectorCatalog, Connectors } from "../src/features/connections/Connectors.js"
import { Payments } from "../src/features/payments/Payments.js"
import { KeyMaterial } from "../src/ports/KeyMaterial.js"
import type { ConnectorDefinition, PaymentConnector } from "../src/ports/PaymentConnector.js"
import { ProviderConnectionsRepository } from "../src/ports/ProviderConnectionsRepository.js"
import { PublicUrls } from "../src/ports/PublicUrls.js"
import { makeScriptedReceiver } from "./support/ScriptedReceiver.js"
import { createTenant, publicUrlsAt } from "./support/TestServices.js"

const card = { brand: null, last4: null, country: null }
const unused = Effect.dieMessage("not used in this test")

/**
 * A PSP whose every charge first reads the connection's credentials, as a real connector would;
 * `opened` counts each time the sealed credentials are opened for it.
 */
const recordingDefinition = (
  seen: Array<string>,
  opened: { count: number }
): ConnectorDefinition<{ readonly region: "eu" | "us" }> => ({
  settings: Schema.Struct({ region: Schema.Literal("eu", "us") }),
  credentialKeys: [{ key: "secret_key", required: true }],
  make: (context, settings): PaymentConnector => ({
    authorize: (request) =>
      Effect.gen(function*() {
        const credentials = yield* Effect.orDie(Effect.tap(context.credentials, () => Effect.sync(() => opened.count++)))
        seen.push(`${settings.region}:${Redacted.value(credentials).secret_key}`)
        return AuthorizationOutcome.Authorized({ pspPaymentId: `psp_${request.reference}`, captured: true, amountCaptured: request.amount, card })
      }),
    syncPayment: () => unused,
    capture: () => unused,
    cancel: () => unused,
    refund: () => unused,
    syncRefund: () => unused,
    verifyWebhook: () => Effect.fail(new WebhookRejected({ reason: "none" }))
  })
})

/** The core over real sealed secrets, with the recording PSP as its only connector. */
const testLayer = (seen: Array<string>, opened: { count: number }) =>
  CoreMemory.pipe(
    Layer.provideMerge(Layer.succeed(ConnectorCatalog, { fakepsp: recordingDefinition(seen, opened) })),
    Layer.provideMerge(makeScriptedReceiver().layer),
    Layer.provideMerge(Layer.succeed(PublicUrls, publicUrlsAt("http://orchestrator.test"))),
    Layer.provideMerge(KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(5)))
  )

const connection = (type: string, settings: Record<string, unknown>, id = `pcn_${type}`) => testConnection({ id, name: type, type, settings })

describe("the connector registry", () => {
  it.effect("answers an unknown connection type with a typed error, not a crash", () => {
    const seen: Array<string> = []
    return Effect.gen(function*() {
      const connectors = yield* Connectors
      expect(connectors.types).toEqual(["fakepsp"])
      const error = yield* Effect.flip(connectors.forConnection(connection("paypal", {})))
      expect(error).toMatchObject({ _tag: "UnknownConnectorType", type: "paypal" })
      expect((yield* Effect.flip(connectors.definition("toString")))._tag).toBe("UnknownConnectorType")
    }).pipe(Effect.provide(testLayer(seen, { count: 0 })))
  })

  it.effect("gives a connector its settings decoded, and its credentials only when the connector asks", () => {
    const seen: Array<string> = []
    const opened = { count: 0 }
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const connections = yield* ProviderConnectionsRepository
      const secrets = yield* ConnectionSecrets
      const psp = connection("fakepsp", { region: "eu" })
      yield* connections.insert(tenant.organizationId, psp)
      const sealed = yield* secrets.seal(psp.id, "credentials", JSON.stringify({ secret_key: "sk_psp_very_secret" }))
      yield* connections.saveSealedSecret(psp.id, "credentials", sealed)
      // Stored sealed, never in the clear.
      expect(sealed).not.toContain("very_secret")
      expect(Option.getOrThrow(yield* connections.findSealedSecret(psp.id, "credentials"))).toBe(sealed)

      // Making the connector decrypts nothing; the charge is where the plaintext is needed.
      yield* (yield* Connectors).forConnection(psp)
      expect(opened.count).toBe(0)
      const payment = yield* (yield* Payments).create(tenant, {
        amount: 500,
        currency: "EUR" as Currency,
        payment_method: { type: "card", token: "tok_x" },
        provider: "fakepsp"
      })
      expect(payment.status).toBe("succeeded")
      expect(seen).toEqual(["eu:sk_psp_very_secret"])
      expect(opened.count).toBe(1)
      // Nothing the API shows carries it.
      expect(JSON.stringify(Schema.encodeSync(ProviderConnection)(psp))).not.toContain("very_secret")
    }).pipe(Effect.provide(testLayer(seen, opened)))
  })

  it.effect("a sealed secret opens only for its own connection and kind", () => {
    const seen: Array<string> = []
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const connections = yield* ProviderConnectionsRepository
      const secrets = yield* ConnectionSecrets
      const mine = connection("fakepsp", { region: "eu" }, "pcn_mine")
      const other = connection("fakepsp", { region: "us" }, "pcn_other")
      for (const each of [mine, other]) yield* connections.insert(tenant.organizationId, each)
      const sealed = yield* secrets.seal(mine.id, "credentials", JSON.stringify({ secret_key: "k" }))
      // Copied to another connection, or filed as the other kind of secret, it does not open.
      yield* connections.saveSealedSecret(other.id, "credentials", sealed)
      yield* connections.saveSealedSecret(mine.id, "webhook_secret", sealed)
      expect((yield* Effect.flip(secrets.credentials(other)))._tag).toBe("MissingSecret")
      expect((yield* Effect.flip(secrets.webhookSecret(mine)))._tag).toBe("MissingSecret")
      yield* connections.saveSealedSecret(mine.id, "credentials", sealed)
      expect(Redacted.value(yield* secrets.credentials(mine))).toEqual({ secret_key: "k" })
      // A connection without a secret is told so, not handed an empty one.
      yield* connections.saveSealedSecret(mine.id, "webhook_secret", null)
      expect((yield* Effect.flip(secrets.webhookSecret(mine)))._tag).toBe("MissingSecret")
    }).pipe(Effect.provide(testLayer(seen, { count: 0 })))
  })
})
