import { Context, Data, type Effect } from "effect"

/** A key could not open what it was given: wrong version, wrong card, a changed bit. The vault fails closed. */
export class VaultKeyFailure extends Data.TaggedError("VaultKeyFailure")<{ readonly reason: string }> {}

/**
 * Where the key-encryption keys (KEKs) live: they wrap and unwrap each card's data key and never
 * leave the provider. A local keyring holds them in memory; an HSM or a cloud KMS would do the same
 * two operations on its side (the shape PKCS#11 and KMS APIs have).
 */
export class KeyProvider extends Context.Tag("vault/KeyProvider")<KeyProvider, {
  /** The version new cards are wrapped under. */
  readonly currentVersion: number
  readonly wrap: (dataKey: Uint8Array, context: Uint8Array) => Effect.Effect<{ readonly version: number; readonly wrapped: Uint8Array }>
  readonly unwrap: (version: number, wrapped: Uint8Array, context: Uint8Array) => Effect.Effect<Uint8Array, VaultKeyFailure>
  /** Where the keys came from, for the start message (never the keys). */
  readonly origin: string
}>() {}
