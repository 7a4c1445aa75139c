import { Context, Effect, Layer, Option, Redacted } from "effect"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { MissingSecret } from "./PaymentConnector.js"
import type { ProviderConnection } from "./ProviderConnection.js"
import { ProviderConnectionsRepository } from "./ProviderConnectionsRepository.js"

/** Which secret of a connection a ciphertext holds; bound into the encryption, so they cannot be swapped. */
export type SecretKind = "credentials" | "webhook_secret"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0))

const additionalData = (connectionId: string, kind: SecretKind) => encoder.encode(`${connectionId}/${kind}`)

/** AES-256-GCM with a random 96-bit nonce: `v1.<nonce>.<ciphertext and tag>`, all base64. */
export const sealSecret = (key: CryptoKey, connectionId: string, kind: SecretKind, plaintext: string) =>
  Effect.promise(async () => {
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: additionalData(connectionId, kind) },
      key,
      encoder.encode(plaintext)
    )
    return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`
  })

/** The plaintext of `sealSecret`; a ciphertext of another connection or kind, or tampered with, fails. */
export const openSecret = (key: CryptoKey, connectionId: string, kind: SecretKind, sealed: string) =>
  Effect.tryPromise({
    try: async () => {
      const [version, iv, data] = sealed.split(".")
      if (version !== "v1" || iv === undefined || data === undefined) throw new Error("unknown format")
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(iv), additionalData: additionalData(connectionId, kind) },
        key,
        fromBase64(data)
      )
      return decoder.decode(plain)
    },
    catch: () => new MissingSecret({ what: `${kind} of connection ${connectionId} cannot be decrypted` })
  })

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
          return yield* openSecret(key, connection.id, kind, sealed.value)
        })
      return {
        credentials: (connection) =>
          Effect.flatMap(open(connection, "credentials"), (json) =>
            Effect.try({
              try: () => Redacted.make(JSON.parse(json) as Readonly<Record<string, string>>),
              catch: () => new MissingSecret({ what: `credentials of connection '${connection.name}'` })
            })),
        webhookSecret: (connection) => Effect.map(open(connection, "webhook_secret"), Redacted.make),
        seal: (connectionId, kind, plaintext) => sealSecret(key, connectionId, kind, plaintext)
      }
    })
  )
}
