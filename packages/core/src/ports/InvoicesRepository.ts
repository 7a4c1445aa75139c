import { Context, Effect, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { InvoiceRecord } from "../domain/subscriptions/Invoice.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

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
>() {}
