import { Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { FileStore, type StoredFile } from "../ports/FileStore.js"
import { MemoryStore } from "./MemoryStore.js"

/** `FileStore` in memory: for the core's tests and `CoreMemory`. */
export const MemoryFileStore = Layer.effect(
  FileStore,
  Effect.map(MemoryStore, (store) => {
    type Row = { readonly organizationId: string; readonly stored: StoredFile }
    const rows = () => store.table<Row>("files")
    const mine = (tenant: Tenant, id: string) =>
      Effect.sync(() => {
        const row = rows().get(id)
        return row !== undefined && row.organizationId === tenant.organizationId && row.stored.file.livemode === tenant.livemode
          ? Option.some(row.stored)
          : Option.none()
      })
    return FileStore.of({
      insert: (tenant, stored) => store.transaction(Effect.sync(() => void rows().set(stored.file.id, { organizationId: tenant.organizationId, stored }))),
      find: (tenant, id) => Effect.map(mine(tenant, id), Option.map((stored) => stored.file)),
      read: mine
    })
  })
)
