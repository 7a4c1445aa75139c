import { Context, Effect, Layer } from "effect"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import type { Invoice } from "../../domain/subscriptions/Invoice.js"
import type { InvoiceNotFound } from "../../domain/subscriptions/SubscriptionErrors.js"
import { type InvoiceListFilter, InvoicesRepository } from "../../ports/InvoicesRepository.js"
import { BillingRecords } from "./BillingRecords.js"

/** Reading invoices; the schedule writes them (see `Subscriptions`). */
export class Invoices extends Context.Tag("core/Invoices")<Invoices, ResourceReads<Invoice, InvoiceNotFound, InvoiceListFilter> & {}>() {
  static readonly layer = Layer.effect(
    Invoices,
    Effect.gen(function*() {
      const records = yield* BillingRecords
      const repository = yield* InvoicesRepository
      return {
        retrieve: (tenant, id) => Effect.flatMap(records.invoice(tenant, id), (record) => records.invoiceView(tenant, record)),
        list: (tenant, filter, page) =>
          Effect.flatMap(repository.list(tenant, filter, page), (found) =>
            Effect.map(
              Effect.forEach(found.data, (record) => records.invoiceView(tenant, record)),
              (data) => ({ ...found, data })
            ))
      }
    })
  ).pipe(Layer.provide(BillingRecords.layer))
}
