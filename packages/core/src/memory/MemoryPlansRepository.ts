import type { Plan } from "../domain/subscriptions/Plan.js"
import { PlansRepository } from "../ports/PlansRepository.js"
import { type MemoryDocuments, memoryDocumentsLayer } from "./MemoryDocuments.js"

/** `PlansRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryPlansRepository = memoryDocumentsLayer(PlansRepository, "plans", (documents: MemoryDocuments<Plan>) => ({
  insert: documents.save,
  find: documents.find,
  list: (tenant, page) => documents.list(tenant, () => true, page)
}))
