import { Context, Effect, Layer, type Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { memoryDocuments } from "../memory/MemoryDocuments.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Customer } from "./Customer.js"

export class CustomersRepository extends Context.Tag("core/CustomersRepository")<CustomersRepository, {
  readonly insert: (tenant: Tenant, customer: Customer) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Customer>>
  readonly list: (tenant: Tenant, filter: { readonly email: string | undefined }, page: PageRequest) => Effect.Effect<Page<Customer>, InvalidCursor>
}>() {
  static readonly layerMemory = Layer.effect(
    CustomersRepository,
    Effect.map(MemoryStore, (store) => {
      const documents = memoryDocuments<Customer>(store, "customers")
      return {
        insert: documents.save,
        find: documents.find,
        list: (tenant, filter, page) =>
          documents.list(tenant, (customer) => filter.email === undefined || customer.email === filter.email, page)
      }
    })
  )
}
