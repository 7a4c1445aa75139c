import { SqlClient } from "@effect/sql"
import { FileResource, FileStore, type Tenant } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"

interface FileRow {
  readonly id: string
  readonly livemode: boolean
  readonly purpose: string
  readonly type: string
  readonly size: number
  readonly filename: string | null
  readonly created_at: Date | string
}

const decodeFile = Schema.decodeUnknownSync(FileResource)

const fileOf = (row: FileRow): FileResource =>
  decodeFile({
    object: "file",
    id: row.id,
    purpose: row.purpose,
    type: row.type,
    size: Number(row.size),
    filename: row.filename,
    created_at: new Date(row.created_at).toISOString(),
    livemode: row.livemode
  })

/**
 * Files in the `files` table (migration 0025). The bytes cross the driver as base64 text, decoded by
 * the database into `bytea`: PostgreSQL's driver and PGlite agree on text, not on binary parameters.
 */
export const FileStoreSql = Layer.effect(
  FileStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const mine = (tenant: Tenant) => sql`organization_id = ${tenant.organizationId} and livemode = ${tenant.livemode}`
    return FileStore.of({
      insert: (tenant, { contents, file }) =>
        sql`insert into files (id, organization_id, livemode, purpose, type, size, filename, contents, created_at)
          values (${file.id}, ${tenant.organizationId}, ${file.livemode}, ${file.purpose}, ${file.type}, ${file.size},
          ${file.filename}, decode(${Buffer.from(contents).toString("base64")}, 'base64'), ${DateTime.formatIso(file.created_at)}::timestamptz)`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      find: (tenant, id) =>
        sql<FileRow>`select id, livemode, purpose, type, size, filename, created_at from files where id = ${id} and ${mine(tenant)}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), fileOf)),
          Effect.orDie
        ),
      read: (tenant, id) =>
        sql<FileRow & { readonly contents: string }>`select id, livemode, purpose, type, size, filename, created_at,
          encode(contents, 'base64') as contents from files where id = ${id} and ${mine(tenant)}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({ file: fileOf(row), contents: new Uint8Array(Buffer.from(row.contents, "base64")) }))
          ),
          Effect.orDie
        )
    })
  })
)
