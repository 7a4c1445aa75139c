import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Files the merchant uploads (`file_…`, dispute evidence): the metadata in columns, the bytes in
 * `contents`, at most 5 MiB (checked before, and by the table). Read only by the organization and
 * mode that uploaded them.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
create table if not exists files (
  id text primary key,
  organization_id text not null references organizations (id),
  livemode boolean not null,
  purpose text not null,
  type text not null check (type in ('pdf', 'png', 'jpg')),
  size integer not null check (size > 0 and size <= 5242880),
  filename text,
  contents bytea not null check (octet_length(contents) = size),
  created_at timestamptz not null
);
`).unprepared
})
