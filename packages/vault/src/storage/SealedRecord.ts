import type { SealedForAccess } from "./VaultStore.js"

/** A card's sealed columns as `vault.card_for_access` returns them (binary as base64 text). */
export interface SealedRecord {
  readonly key_version: number
  readonly wrapped_key: string
  readonly ciphertext: string
  readonly brand: string
  readonly network_transaction_id: string | null
}

export const base64 = (data: Uint8Array) => Buffer.from(data).toString("base64")
export const bytes = (text: string) => new Uint8Array(Buffer.from(text, "base64"))

export const sealedOf = (record: SealedRecord): SealedForAccess => ({
  keyVersion: Number(record.key_version),
  wrappedKey: bytes(record.wrapped_key),
  ciphertext: bytes(record.ciphertext),
  brand: record.brand,
  networkTransactionId: record.network_transaction_id
})
