import { Context, Effect, Layer, type Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { memoryDocuments } from "../memory/MemoryDocuments.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { TestClock } from "./TestClock.js"

export class TestClocksRepository extends Context.Tag("core/TestClocksRepository")<TestClocksRepository, {
  readonly insert: (tenant: Tenant, clock: TestClock) => Effect.Effect<void>
  readonly update: (tenant: Tenant, clock: TestClock) => Effect.Effect<void>
  readonly remove: (tenant: Tenant, id: string) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<TestClock>>
  readonly list: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<TestClock>, InvalidCursor>
}>() {
  static readonly layerMemory = Layer.effect(
    TestClocksRepository,
    Effect.map(MemoryStore, (store) => {
      const documents = memoryDocuments<TestClock>(store, "test_clocks")
      return {
        insert: documents.save,
        update: documents.save,
        remove: documents.remove,
        find: documents.find,
        list: (tenant, page) => documents.list(tenant, () => true, page)
      }
    })
  )
}
