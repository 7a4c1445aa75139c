import { Context, Data, Effect, Layer, Schema } from "effect"
import { connectorTakes } from "../../domain/payments/PaymentMethodTypes.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { ConnectorDefinition, PaymentConnector } from "../../ports/PaymentConnector.js"
import { PublicUrls } from "../../ports/PublicUrls.js"
import { ConnectionSecrets } from "./ConnectionSecrets.js"
import { observedConnector } from "./ObservedConnector.js"
import { idCheckedConnector } from "./PspIds.js"

/** No connector of this build handles the connection's `type`. */
export class UnknownConnectorType extends Data.TaggedError("UnknownConnectorType")<{ readonly type: string }> {}

/**
 * The connection types a host offers, each with its connector: the port a host fills with the
 * connectors it ships (`@orchestrator/connectors` has the sandbox, Stripe and Adyen).
 */
export class ConnectorCatalog extends Context.Tag("core/ConnectorCatalog")<
  ConnectorCatalog,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each connection type has its own settings
  Readonly<Record<string, ConnectorDefinition<any>>>
>() {}

/**
 * The registry of connectors by connection `type`. A connector gets its connection's secrets as
 * effects it runs itself, so the plaintext exists only inside the connector, and only while it works.
 */
export class Connectors extends Context.Tag("core/Connectors")<Connectors, {
  readonly types: ReadonlyArray<string>
  readonly definition: (type: string) => Effect.Effect<ConnectorDefinition, UnknownConnectorType>
  /** Whether connections of `type` can take payments by `method` (the definition's `paymentMethods`). */
  readonly takes: (type: string, method: string) => boolean
  /** Whether checkout mounts the connector's own card form even though it takes vaulted cards (`ownCheckoutForm`). */
  readonly ownCheckoutForm: (type: string) => boolean
  /** The connector of a connection whose settings were checked when they were saved. */
  readonly forConnection: (connection: ProviderConnection) => Effect.Effect<PaymentConnector, UnknownConnectorType>
}>() {
  /** The registry over the `ConnectorCatalog` the host provides. */
  static readonly layer = Layer.effect(
    Connectors,
    Effect.gen(function*() {
      const definitions = yield* ConnectorCatalog
      const secrets = yield* ConnectionSecrets
      const urls = yield* PublicUrls
      const publicBaseUrl = urls.base
      const definition = (type: string) =>
        Object.hasOwn(definitions, type)
          ? Effect.succeed(definitions[type]! as ConnectorDefinition)
          : Effect.fail(new UnknownConnectorType({ type }))
      // A connection read from the short-lived cache is the same object for every request in that
      // moment: its settings are decoded and its connector made once for all of them. Connectors
      // hold no secret (they run the effects that decrypt them), so keeping one holds none either.
      const made = new WeakMap<ProviderConnection, PaymentConnector>()
      return {
        types: Object.keys(definitions),
        definition,
        takes: (type, method) => {
          const known = Object.hasOwn(definitions, type) ? definitions[type] : undefined
          return connectorTakes(known?.paymentMethods, method, known?.rawCards === true)
        },
        ownCheckoutForm: (type) => Object.hasOwn(definitions, type) && definitions[type]!.ownCheckoutForm === true,
        forConnection: (connection) => {
          const known = made.get(connection)
          if (known !== undefined) return Effect.succeed(known)
          return Effect.flatMap(
            definition(connection.type),
            (found) =>
              Effect.map(Effect.orDie(Schema.decodeUnknown(found.settings)(connection.settings)), (settings) => {
                const connector = observedConnector(
                  connection,
                  idCheckedConnector(found.make({
                    connection,
                    credentials: secrets.credentials(connection),
                    webhookSecret: secrets.webhookSecret(connection),
                    publicBaseUrl,
                    webhookUrl: urls.providerWebhook(connection.id)
                  }, settings))
                )
                made.set(connection, connector)
                return connector
              })
          )
        }
      }
    })
  ).pipe(Layer.provide(ConnectionSecrets.layer))

  static readonly fromDefinitions = (definitions: ConnectorCatalog["Type"]) =>
    Connectors.layer.pipe(Layer.provide(Layer.succeed(ConnectorCatalog, definitions)))
}
