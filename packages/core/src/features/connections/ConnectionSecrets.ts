import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { SecretKind } from "../../domain/providers/SecretKind.js"
import { openSecret, sealSecret } from "../../domain/tenancy/SealedSecrets.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { MissingSecret } from "../../ports/PaymentConnector.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"

/**
 * A connection's credentials and webhook secret, encrypted at rest with the key derived from the
 * master secret. Only connectors ask for the plaintext, and only when they need it.
 */
export class ConnectionSecrets extends Context.Tag("core/ConnectionSecrets")<ConnectionSecrets, {
  readonly credentials: (
    connection: ProviderConnection
  ) => Effect.Effect<Redacted.Redacted<Readonly<Record<string, string>>>, MissingSecret>
  readonly webhookSecret: (connection: ProviderConnection) => Effect.Effect<Redacted.Redacted<string>, MissingSecret>
  /** The ciphertext to store for a secret of a connection. */
  readonly seal: (connectionId: string, kind: SecretKind, plaintext: string) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.effect(
    ConnectionSecrets,
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const { credentialEncryption: key } = yield* KeyMaterial
      const open = (connection: ProviderConnection, kind: SecretKind) =>
        Effect.gen(function*() {
          const sealed = yield* connections.findSealedSecret(connection.id, kind)
          if (Option.isNone(sealed)) return yield* new MissingSecret({ what: `${kind} of connection '${connection.name}'` })
          return yield* openSecret(key, `${connection.id}/${kind}`, sealed.value).pipe(
            Effect.mapError(() => new MissingSecret({ what: `${kind} of connection '${connection.name}' cannot be decrypted` }))
          )
        })
      return {
        credentials: (connection) =>
          Effect.flatMap(open(connection, "credentials"), (json) =>
            Effect.try({
              try: () => Redacted.make(JSON.parse(json) as Readonly<Record<string, string>>),
              catch: () => new MissingSecret({ what: `credentials of connection '${connection.name}'` })
            })),
        webhookSecret: (connection) => Effect.map(open(connection, "webhook_secret"), Redacted.make),
        seal: (connectionId, kind, plaintext) => sealSecret(key, `${connectionId}/${kind}`, plaintext)
      }
    })
  )
}
