import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { CreateCustomer, Customer } from "@orchestrator/core/subscriptions/Customer"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { BillingRequestInvalid, CustomerNotFound, ReferenceNotFound } from "./BillingErrors.js"

export const CustomerList = ListOf(Customer).annotations({ identifier: "CustomerList" })

export class CustomersApi extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("create", "/customers")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateCustomer)
      .addSuccess(Customer, { status: 201 })
      .addError(ReferenceNotFound)
      .addError(BillingRequestInvalid)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Create a customer, optionally on a test clock")
  )
  .add(
    retrieveById("/customers/:id", Customer, CustomerNotFound, "Retrieve a customer")
  )
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(ListQuery({ email: Schema.optional(Identifier) }))
      .addSuccess(CustomerList)
      .annotate(OpenApi.Summary, "List customers, newest first")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Customers")
{}
