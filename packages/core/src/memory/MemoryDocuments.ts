import { type Context, type DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { pageOf } from "./MemoryPaging.js"
import { MemoryStore } from "./MemoryStore.js"

interface Document {
  readonly id: string
  readonly created_at: DateTime.Utc
  readonly livemode: boolean
}

/** One table of whole records owned by tenants, for the simpler in-memory repositories. */
export const memoryDocuments = <A extends Document>(store: MemoryStore, name: string) => {
  type Row = { readonly organizationId: string; readonly value: A }
  const rows = () => store.table<Row>(name)
  const mine = (tenant: Tenant, row: Row | undefined): row is Row =>
    row !== undefined && row.organizationId === tenant.organizationId && row.value.livemode === tenant.livemode
  const find = (tenant: Tenant, id: string) =>
    Effect.sync(() => {
      const row = rows().get(id)
      return mine(tenant, row) ? Option.some(row.value) : Option.none<A>()
    })
  return {
    save: (tenant: Tenant, value: A) => Effect.sync(() => void rows().set(value.id, { organizationId: tenant.organizationId, value })),
    remove: (tenant: Tenant, id: string) => Effect.sync(() => void (mine(tenant, rows().get(id)) && rows().delete(id))),
    find,
    /** Every row of every tenant, with its tenant: for the worker's claims. */
    everyone: () => [...rows().values()].map((row) => ({ tenant: { organizationId: row.organizationId, livemode: row.value.livemode }, value: row.value })),
    list: (tenant: Tenant, matching: (value: A) => boolean, page: PageRequest): Effect.Effect<Page<A>, InvalidCursor> =>
      Effect.suspend(() => pageOf([...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.value), matching, page))
  }
}

/** One table of `memoryDocuments`. */
export type MemoryDocuments<A extends Document> = ReturnType<typeof memoryDocuments<A>>

/** The in-memory layer of a repository kept in one table of documents: its members, made of that table. */
export const memoryDocumentsLayer = <Self, Shape, A extends Document>(
  tag: Context.Tag<Self, Shape>,
  table: string,
  members: (documents: MemoryDocuments<A>) => Shape
) => Layer.effect(tag, Effect.map(MemoryStore, (store) => members(memoryDocuments<A>(store, table))))
