import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { CurrencyCode } from "@orchestrator/core/domain/Currency"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { CancelPayment, CapturePayment, CreatePayment, Payment, PaymentStatus } from "@orchestrator/core/payments/Payment"
import { RETURN_SYNC_INTERVAL } from "@orchestrator/core/payments/ReturnSyncThrottle"
import { RETURN_TOKEN_LIFETIME_SECONDS, RETURN_TOKEN_PARAM } from "@orchestrator/core/payments/ReturnToken"
import { Duration, Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { NoProviderAvailable, ProviderNotUsable } from "../providers/ProviderErrors.js"
import {
  AmountTooLarge,
  PaymentFailed,
  PaymentNotFound,
  PaymentStateConflict,
  ProviderTimeout,
  ProviderUnavailable,
  ReturnUrlRequired
} from "./PaymentErrors.js"

export const PaymentList = ListOf(Payment).annotations({ identifier: "PaymentList" })

export const PaymentListQuery = ListQuery({
  status: Schema.optional(PaymentStatus),
  provider: Schema.optional(Identifier),
  currency: Schema.optional(CurrencyCode),
  customer_id: Schema.optional(Identifier),
  /** Payments billed on this test clock (they carry it in `metadata.test_clock`). */
  test_clock: Schema.optional(Identifier)
})

/**
 * A command on one payment (capture, cancel): idempotent, its body optional; it answers the payment, or
 * why not. Each adds its own failures after these (their order is the OpenAPI document's).
 */
const paymentCommand = <Name extends string, Body extends Schema.Schema.Any>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  body: Body
) =>
  HttpApiEndpoint.post(name, path)
    .setPath(ById)
    .setHeaders(OptionalIdempotencyKey)
    .setPayload(Schema.NullOr(body))
    .addSuccess(Payment)
    .addError(PaymentFailed)
    .addError(PaymentNotFound)
    .addError(PaymentStateConflict)
    .addError(IdempotencyKeyInUse)

export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.post("create", "/payments")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreatePayment)
      .addSuccess(Payment, { status: 201 })
      .addError(PaymentFailed)
      .addError(IdempotencyKeyInUse)
      .addError(ReturnUrlRequired)
      .addError(ProviderNotUsable)
      .addError(NoProviderAvailable)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Create and process a payment")
      .annotate(
        OpenApi.Description,
        "201 for every outcome but a decline, which answers 402 with the failed payment inside the error. " +
          "A payment the provider has not answered yet stays `processing` and is settled in the background."
      )
  )
  .add(
    listPage("/payments", PaymentListQuery, PaymentList, "List payments, newest first")
  )
  .add(
    retrieveById("/payments/:id", Payment, PaymentNotFound, "Retrieve a payment")
  )
  .add(
    paymentCommand("capture", "/payments/:id/capture", CapturePayment)
      .addError(AmountTooLarge)
      .addError(IdempotencyKeyReused)
      .addError(ProviderUnavailable)
      .addError(ProviderTimeout)
      .annotate(OpenApi.Summary, "Capture an authorized payment, in full or in part")
  )
  .add(
    paymentCommand("cancel", "/payments/:id/cancel", CancelPayment)
      .addError(IdempotencyKeyReused)
      .addError(ProviderUnavailable)
      .addError(ProviderTimeout)
      .annotate(OpenApi.Summary, "Cancel a payment that is not yet settled")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Payments")
{}

/**
 * Where the PSP sends the customer back after 3D Secure; no API key, the customer's browser calls it
 * with the signed token of the URL we gave the PSP.
 */
export class PaymentReturnApi extends HttpApiGroup.make("paymentReturn")
  .add(
    HttpApiEndpoint.get("return", "/payments/:id/return")
      .setPath(ById)
      // Our `token`, and what the PSP appends for the way back (Adyen's `redirectResult`) for its connector.
      // A name may come twice: PayPal appends its own `token` (the order) after ours.
      .setUrlParams(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(Schema.String)) }))
      .addSuccess(HttpApiSchema.Empty(303))
      // Without a return_url there is nowhere to send the customer: a page says they may close it.
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(PaymentNotFound)
      .annotate(OpenApi.Summary, "Customer return from the provider's authentication page")
      .annotate(
        OpenApi.Description,
        `The URL given to the provider, \`${RETURN_TOKEN_PARAM}\` included (signed for this payment, valid ` +
          `${RETURN_TOKEN_LIFETIME_SECONDS / 3600} hours from its creation): without a valid token it answers 404 ` +
          `and does nothing. Synchronizes the payment with the provider (at most once per payment every ` +
          `${Duration.toSeconds(RETURN_SYNC_INTERVAL)} seconds; handing it the query parameters it appended, such ` +
          "as Adyen's redirectResult) and redirects (303) to the merchant's return_url with payment_id; a payment " +
          "without return_url answers 200 with a page that only says the window can be closed."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Payment return")
{}
