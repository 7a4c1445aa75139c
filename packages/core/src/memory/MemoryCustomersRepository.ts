import type { Customer } from "../domain/subscriptions/Customer.js"
import { CustomersRepository } from "../ports/CustomersRepository.js"
import { type MemoryDocuments, memoryDocumentsLayer } from "./MemoryDocuments.js"

/** `CustomersRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryCustomersRepository = memoryDocumentsLayer(CustomersRepository, "customers", (documents: MemoryDocuments<Customer>) => ({
  insert: documents.save,
  find: documents.find,
  list: (tenant, filter, page) => documents.list(tenant, (customer) => filter.email === undefined || customer.email === filter.email, page)
}))
