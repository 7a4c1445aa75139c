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
  /** The checkout session whose shopper typed the card, the one session that may be paid with it. */
  readonly checkoutSessionId: string | null
  readonly createdAtMillis: number
}

/** What a PSP call reads of a card: its sealed data, and what the request it forwards needs besides. */
export interface SealedForAccess {
  readonly keyVersion: number
  readonly wrappedKey: Uint8Array
  readonly ciphertext: Uint8Array
  readonly brand: string
  readonly networkTransactionId: string | null
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

/** A card's wrapped data key, as key rotation reads and rewrites it. */
export interface WrappedKey {
  readonly id: string
  readonly keyVersion: number
  readonly wrappedKey: Uint8Array
}

/** What one batch of a rotation did: the last card id it looked at (the next batch starts after it), and how many it claimed. */
export interface RewrapBatch {
  readonly lastId: string | null
  readonly claimed: number
  readonly rewrapped: number
}

/**
 * The vault's own tables (schema `vault`): nothing outside the vault reads them, but a vaulted
 * payment's creation, through the vault's function `vault.card_for_access` (migration 0030).
 */
export class VaultStore extends Context.Tag("vault/VaultStore")<VaultStore, {
  readonly insert: (row: CardRow) => Effect.Effect<void>
  readonly find: (organizationId: string, id: string) => Effect.Effect<Option.Option<CardRow>>
  /** Deletes the card's row, its sealed data with it; `false` when there was none. */
  readonly destroy: (organizationId: string, id: string) => Effect.Effect<boolean>
  /** Keeps the scheme's id of the card's first authorization; a later one never replaces it (the chain starts there). */
  readonly keepNetworkTransaction: (organizationId: string, id: string, networkTransactionId: string) => Effect.Effect<void>
  /**
   * The card of the access's organization and mode, with the access appended to its log in the same
   * statement (one round trip on a payment's path); `None`, and nothing logged, when there is none.
   * Only what the call needs is read: the facts it routed by are known already.
   */
  readonly findForAccess: (record: AccessRecord) => Effect.Effect<Option.Option<SealedForAccess>>
  readonly accesses: (organizationId: string, cardId: string) => Effect.Effect<ReadonlyArray<AccessRecord>>
  /** Up to `limit` of a card's accesses, newest first, before the one numbered `beforeSeq` when given; each with its number. */
  readonly accessPage: (
    organizationId: string,
    cardId: string,
    beforeSeq: number | undefined,
    limit: number
  ) => Effect.Effect<ReadonlyArray<AccessRecord & { readonly seq: number }>>
  /**
   * Up to `limit` cards after `afterId` (by id) whose data key is wrapped under a version below
   * `current`, each handed to `rewrap`: a new wrapping replaces the old in one update of that row
   * (its ciphertext untouched); `None` leaves the row as it is. On SQL the batch's rows are claimed
   * `FOR UPDATE SKIP LOCKED` in one transaction, so several workers share the work and a crash
   * rolls back to rows that still open under their old key.
   */
  readonly rewrapBatch: <E>(
    current: number,
    afterId: string,
    limit: number,
    rewrap: (card: WrappedKey) => Effect.Effect<Option.Option<WrappedKey>, E>
  ) => Effect.Effect<RewrapBatch, E>
  /** How many cards each key version wraps, for `orchestrator_vault_cards{key_version}`. */
  readonly keyVersionCounts: Effect.Effect<ReadonlyArray<{ readonly keyVersion: number; readonly cards: number }>>
}>() {}
