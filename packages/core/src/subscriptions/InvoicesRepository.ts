import { Context, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "../lifecycle/Lifecycle.js"
import { memoryDocuments } from "../memory/MemoryDocuments.js"
import { memoryRecordRepository } from "../memory/MemoryRecordWrites.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { InvoiceRecord } from "./Invoice.js"

/** Which invoices a list shows: of one subscription, of the subscriptions of one test clock. */
export interface InvoiceListFilter {
  readonly subscription: string | undefined
  readonly test_clock?: string | undefined
}

export class InvoicesRepository extends Context.Tag("core/InvoicesRepository")<
  InvoicesRepository,
  RecordRepository<InvoiceRecord> & {
    /** The invoice a payment was made for, if any. */
    readonly findByPayment: (tenant: Tenant, paymentId: string) => Effect.Effect<Option.Option<InvoiceRecord>>
    readonly list: (
      tenant: Tenant,
      filter: InvoiceListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<InvoiceRecord>, InvalidCursor>
  }
>() {
  static readonly layerMemory = Layer.effect(
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
}
