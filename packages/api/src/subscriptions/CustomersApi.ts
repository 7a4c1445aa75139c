import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  BillingRequestInvalid,
  CreateCustomer,
  Customer,
  CustomerNotFound,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  InvalidCursor,
  ListOf,
  optionalField,
  ReferenceNotFound
} from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const CustomerList = ListOf(Customer).annotations({ identifier: "CustomerList" })

export class CustomersApi extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("create", "/customers")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CreateCustomer)
      .addSuccess(Customer, { status: 201 })
      .addError(apiErrorOf(ReferenceNotFound))
      .addError(apiErrorOf(BillingRequestInvalid))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create a customer, optionally on a test clock")
      .annotate(
        OpenApi.Description,
        "A customer is who subscriptions bill: an email, a name and your metadata. Create it on a `test_clock` " +
          "(test mode) to move its subscriptions through time with that clock."
      )
  )
  .add(
    retrieveById("/customers/:id", Customer, CustomerNotFound, "Retrieve a customer")
      .annotate(OpenApi.Description, "One customer by its id (`cus_…`).")
  )
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(ListQuery({ email: optionalField(Identifier, "Only customers with exactly this email.") }))
      .addSuccess(CustomerList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List customers, newest first")
      .annotate(OpenApi.Description, "The customers of this key's mode, newest first; `email` finds one by its email.")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Customers")
  .annotate(
    OpenApi.Description,
    "Customers are who subscriptions bill. The service creates the matching customer at a PSP when a " +
      "subscription first needs it. See subscriptions and test clocks at /docs/guides/subscriptions."
  )
{}
