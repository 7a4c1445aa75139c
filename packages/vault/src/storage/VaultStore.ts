import { Context, type Effect, type Option } from "effect"

/** One vaulted card: its sealed data, and the facts that may be shown. */
export interface CardRow {
  readonly id: string
  readonly organizationId: string
  readonly livemode: boolean
  readonly keyVersion: number
  readonly wrappedKey: Uint8Array
  readonly ciphertext: Uint8Array
  readonly brand: string
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
  readonly country: string | null
  readonly funding: "credit" | "debit" | "prepaid" | "unknown"
  readonly fingerprint: string
  readonly networkTransactionId: string | null
  readonly createdAtMillis: number
}

/** One decryption of a card: who, why, for which payment and connection, when. Append-only. */
export interface AccessRecord {
  readonly cardId: string
  readonly organizationId: string
  readonly livemode: boolean
  readonly purpose: string
  readonly paymentId: string | null
  readonly connection: string | null
  readonly atMillis: number
}

/** The vault's own tables (schema `vault`): nothing outside the vault reads them. */
export class VaultStore extends Context.Tag("vault/VaultStore")<VaultStore, {
  readonly insert: (row: CardRow) => Effect.Effect<void>
  readonly find: (organizationId: string, id: string) => Effect.Effect<Option.Option<CardRow>>
  /** Deletes the card's row, its sealed data with it; `false` when there was none. */
  readonly destroy: (organizationId: string, id: string) => Effect.Effect<boolean>
  readonly keepNetworkTransaction: (organizationId: string, id: string, networkTransactionId: string) => Effect.Effect<void>
  readonly appendAccess: (record: AccessRecord) => Effect.Effect<void>
  readonly accesses: (organizationId: string, cardId: string) => Effect.Effect<ReadonlyArray<AccessRecord>>
}>() {}
