import { SqlClient } from "@effect/sql"
import { cardForAccess, untraced } from "@orchestrator/sql"
import { Effect, Layer, Option } from "effect"
import { base64, bytes, sealedOf, type SealedRecord } from "./SealedRecord.js"
import { type AccessRecord, type CardRow, VaultStore } from "./VaultStore.js"

interface CardRecord {
  readonly id: string
  readonly organization_id: string
  readonly livemode: boolean
  readonly key_version: number
  readonly wrapped_key: string
  readonly ciphertext: string
  readonly brand: string
  readonly last4: string
  readonly exp_month: number
  readonly exp_year: number
  readonly country: string | null
  readonly funding: CardRow["funding"]
  readonly fingerprint: string
  readonly network_transaction_id: string | null
  readonly checkout_session_id: string | null
  readonly created_at: Date | string
}

interface AccessRecordRow {
  readonly seq: number | string
  readonly card_id: string
  readonly organization_id: string
  readonly livemode: boolean
  readonly purpose: string
  readonly payment_id: string | null
  readonly connection: string | null
  readonly at: Date | string
}

const accessOf = (row: AccessRecordRow): AccessRecord => ({
  cardId: row.card_id,
  organizationId: row.organization_id,
  livemode: row.livemode,
  purpose: row.purpose,
  paymentId: row.payment_id,
  connection: row.connection,
  atMillis: new Date(row.at).getTime()
})

const rowOf = (record: CardRecord): CardRow => ({
  id: record.id,
  organizationId: record.organization_id,
  livemode: record.livemode,
  keyVersion: Number(record.key_version),
  wrappedKey: bytes(record.wrapped_key),
  ciphertext: bytes(record.ciphertext),
  brand: record.brand,
  last4: record.last4,
  expMonth: Number(record.exp_month),
  expYear: Number(record.exp_year),
  country: record.country,
  funding: record.funding,
  fingerprint: record.fingerprint,
  networkTransactionId: record.network_transaction_id,
  checkoutSessionId: record.checkout_session_id ?? null,
  createdAtMillis: new Date(record.created_at).getTime()
})

/** The vault's tables in PostgreSQL or PGlite (schema `vault`, migrations 0020, 0021 and 0029). */
export const VaultStoreSql = Layer.effect(
  VaultStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (row) =>
        sql`insert into vault.cards (id, organization_id, livemode, key_version, wrapped_key, ciphertext, brand, last4,
          exp_month, exp_year, country, funding, fingerprint, checkout_session_id, created_at)
          values (${row.id}, ${row.organizationId}, ${row.livemode}, ${row.keyVersion}, ${base64(row.wrappedKey)},
          ${base64(row.ciphertext)}, ${row.brand}, ${row.last4}, ${row.expMonth}, ${row.expYear}, ${row.country}, ${row.funding},
          ${row.fingerprint}, ${row.checkoutSessionId}, ${new Date(row.createdAtMillis).toISOString()})`.pipe(Effect.asVoid, Effect.orDie),
      find: (organizationId, id) =>
        sql<CardRecord>`select * from vault.cards where organization_id = ${organizationId} and id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), rowOf)),
          Effect.orDie
        ),
      destroy: (organizationId, id) =>
        sql<{ id: string }>`delete from vault.cards where organization_id = ${organizationId} and id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      keepNetworkTransaction: (organizationId, id, networkTransactionId) =>
        sql`update vault.cards set network_transaction_id = ${networkTransactionId}
          where organization_id = ${organizationId} and id = ${id} and network_transaction_id is null`.pipe(Effect.asVoid, Effect.orDie),
      // The vault's one statement on a payment's path (when the payment's creation did not read the
      // card already): no span of its own when tracing is off, and only the columns the PSP call reads.
      findForAccess: (record) =>
        untraced(sql<SealedRecord>`${cardForAccess(sql, { organizationId: record.organizationId, livemode: record.livemode }, record)}`).pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(sealedOf(rows[0]!))),
          Effect.orDie
        ),
      accesses: (organizationId, cardId) =>
        sql<AccessRecordRow>`select * from vault.card_accesses where organization_id = ${organizationId} and card_id = ${cardId} order by seq`.pipe(
          Effect.map((rows) => rows.map(accessOf)),
          Effect.orDie
        ),
      accessPage: (organizationId, cardId, beforeSeq, limit) =>
        sql<AccessRecordRow>`select * from vault.card_accesses where organization_id = ${organizationId} and card_id = ${cardId}
          ${beforeSeq === undefined ? sql`` : sql`and seq < ${beforeSeq}`} order by seq desc limit ${limit}`.pipe(
          Effect.map((rows) => rows.map((row) => ({ ...accessOf(row), seq: Number(row.seq) }))),
          Effect.orDie
        ),
      rewrapBatch: (current, afterId, limit, rewrap) =>
        sql.withTransaction(Effect.gen(function*() {
          const rows = yield* Effect.orDie(sql<{ id: string; key_version: number; wrapped_key: string }>`
            select id, key_version, wrapped_key from vault.cards where key_version < ${current} and id > ${afterId}
            order by id limit ${limit} for update skip locked`)
          let rewrapped = 0
          for (const row of rows) {
            const next = yield* rewrap({ id: row.id, keyVersion: Number(row.key_version), wrappedKey: bytes(row.wrapped_key) })
            if (Option.isNone(next)) continue
            yield* Effect.orDie(sql`update vault.cards set key_version = ${next.value.keyVersion}, wrapped_key = ${base64(next.value.wrappedKey)}
              where id = ${row.id}`)
            rewrapped++
          }
          return { lastId: rows.at(-1)?.id ?? null, claimed: rows.length, rewrapped }
        })).pipe(Effect.catchTag("SqlError", Effect.die)),
      keyVersionCounts: sql<{ key_version: number; cards: number }>`
        select key_version, count(*)::int as cards from vault.cards group by key_version order by key_version`.pipe(
        Effect.map((rows) => rows.map((row) => ({ keyVersion: Number(row.key_version), cards: Number(row.cards) }))),
        Effect.orDie
      )
    }
  })
)
