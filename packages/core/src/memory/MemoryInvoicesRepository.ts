import { Effect, Layer, Option } from "effect"
import type { InvoiceRecord } from "../domain/subscriptions/Invoice.js"
import { InvoicesRepository } from "../ports/InvoicesRepository.js"
import { memoryDocuments } from "./MemoryDocuments.js"
import { memoryRecordRepository } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

/** `InvoicesRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryInvoicesRepository = Layer.effect(
  InvoicesRepository,
  Effect.map(MemoryStore, (store) => {
    const documents = memoryDocuments<InvoiceRecord>(store, "invoices")
    return {
      ...memoryRecordRepository(store, documents),
      findByPayment: (tenant, paymentId) =>
        Effect.sync(() =>
          Option.fromNullable(
            documents.everyone().find((row) => row.tenant.organizationId === tenant.organizationId && row.value.payment_id === paymentId)?.value
          )
        ),
      list: (tenant, filter, page) =>
        documents.list(
          tenant,
          (invoice) =>
            (filter.subscription === undefined || invoice.subscription_id === filter.subscription) &&
            (filter.test_clock === undefined ||
              store.table<{ readonly value: { readonly test_clock: string | null } }>("subscriptions")
                  .get(invoice.subscription_id)?.value.test_clock === filter.test_clock),
          page
        )
    }
  })
)
