import { Context, type Effect, type Option } from "effect"
import type { FileResource } from "../domain/files/FileResource.js"
import type { Tenant } from "../domain/Tenant.js"

/** A file with its bytes. */
export interface StoredFile {
  readonly file: FileResource
  readonly contents: Uint8Array
}

/**
 * Where uploaded files live, each with its organization and mode: the SQL adapter keeps them in the
 * database, another host may put them behind object storage. A file is never changed once stored.
 */
export class FileStore extends Context.Tag("core/FileStore")<FileStore, {
  readonly insert: (tenant: Tenant, stored: StoredFile) => Effect.Effect<void>
  /** The file's metadata, only for its own tenant. */
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<FileResource>>
  /** The file with its bytes, only for its own tenant. */
  readonly read: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<StoredFile>>
}>() {}
