import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Identifier, InvalidCursor, Invoice, InvoiceNotFound, ListOf, optionalField } from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ListQuery, retrieveById } from "../Endpoints.js"

export const InvoiceList = ListOf(Invoice).annotations({ identifier: "InvoiceList" })

export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    retrieveById("/invoices/:id", Invoice, InvoiceNotFound, "Retrieve an invoice with its latest payment")
      .annotate(OpenApi.Description, "One invoice: the period it bills, its status, its attempts so far and its latest payment.")
  )
  .add(
    HttpApiEndpoint.get("list", "/invoices")
      .setUrlParams(ListQuery({
        subscription: optionalField(Identifier, "Only the invoices of this subscription (`sub_…`)."),
        test_clock: optionalField(Identifier, "Only invoices of customers on this test clock (`clock_…`).")
      }))
      .addSuccess(InvoiceList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List invoices, newest first")
      .annotate(OpenApi.Description, "The invoices of this key's mode, newest first, optionally of one subscription or test clock.")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Invoices")
  .annotate(
    OpenApi.Description,
    "An invoice bills one period of a subscription: `open` until a payment pays it (`paid`), retried on the " +
      "dunning schedule when a charge fails, `uncollectible` when every retry failed, `void` when a first charge " +
      "never completed. The service creates them; you read them."
  )
{}
