import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { Invoice } from "@orchestrator/core/subscriptions/Invoice"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ListQuery, retrieveById } from "../Endpoints.js"
import { InvoiceNotFound } from "./BillingErrors.js"

export const InvoiceList = ListOf(Invoice).annotations({ identifier: "InvoiceList" })

export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    retrieveById("/invoices/:id", Invoice, InvoiceNotFound, "Retrieve an invoice with its latest payment")
  )
  .add(
    HttpApiEndpoint.get("list", "/invoices")
      .setUrlParams(ListQuery({
        subscription: Schema.optional(Identifier),
        test_clock: Schema.optional(Identifier)
      }))
      .addSuccess(InvoiceList)
      .annotate(OpenApi.Summary, "List invoices, newest first")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Invoices")
{}
