import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AmountTooLarge,
  CancelPayment,
  CapturePayment,
  CreatePayment,
  CurrencyCode,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  ListOf,
  NoProviderAvailable,
  optionalField,
  Payment,
  PaymentCustomerNotFound,
  PaymentMethodModeMismatch,
  PaymentMethodNotFound,
  PaymentNotFound,
  PaymentRefused,
  PaymentStateConflict,
  PaymentStatus,
  ProviderNotUsable,
  ProviderTimeout,
  ProviderUnavailable,
  RETURN_SYNC_INTERVAL,
  RETURN_TOKEN_LIFETIME_SECONDS,
  RETURN_TOKEN_PARAM,
  ReturnUrlRequired
} from "@orchestrator/core"
import { Duration, Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../Headers.js"

export const PaymentList = ListOf(Payment).annotations({ identifier: "PaymentList" })

export const PaymentListQuery = ListQuery({
  status: optionalField(PaymentStatus, "Only payments in this status."),
  provider: optionalField(Identifier, "Only payments made on this provider connection (its `name`, e.g. `sandbox_a`)."),
  currency: optionalField(CurrencyCode, "Only payments in this currency (ISO 4217, upper case)."),
  customer_id: optionalField(Identifier, "Only payments of this customer (`cus_…`)."),
  test_clock: optionalField(Identifier, "Only payments billed on this test clock (`clock_…`; they carry it in `metadata.test_clock`)."),
  order_by: optionalField(
    Schema.Literal("created_at", "id"),
    "Newest first by `created_at` (the default), or by `id`: in the order the payments were made, whatever time they carry (a test clock's payments carry its simulated `created_at`, which may be years ahead)."
  )
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
    .addError(apiErrorOf(PaymentRefused))
    .addError(apiErrorOf(PaymentNotFound))
    .addError(apiErrorOf(PaymentStateConflict))
    .addError(apiErrorOf(IdempotencyKeyInUse))

export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.post("create", "/payments")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreatePayment)
      .addSuccess(Payment, { status: 201 })
      .addError(apiErrorOf(PaymentRefused))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(ReturnUrlRequired))
      .addError(apiErrorOf(ProviderNotUsable))
      .addError(apiErrorOf(NoProviderAvailable))
      .addError(apiErrorOf(PaymentCustomerNotFound))
      .addError(apiErrorOf(PaymentMethodNotFound))
      .addError(apiErrorOf(PaymentMethodModeMismatch))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create and process a payment")
      .annotate(
        OpenApi.Description,
        "Charges a payment method through a provider: the one named in `provider`, else the organization's " +
          "default provider (or its routing rules, when `payments_routing` is `rules`). Send an `Idempotency-Key`: a " +
          "retry with the same key replays the first answer and never charges twice.\n\n" +
          "Answers 201 for every outcome but a decline: `succeeded`; `requires_capture` when `capture` is `false` " +
          "(capture or cancel it later); `requires_action` when the card needs 3D Secure (send the customer to " +
          "`next_action.url`; this needs a `return_url`); `processing` when the provider has not answered yet (it is " +
          "settled in the background, and a webhook tells you). A decline answers 402 with the failed payment " +
          "inside the error. See the 3D Secure guide at /docs/guides/3d-secure."
      )
  )
  .add(
    listPage("/payments", PaymentListQuery, PaymentList, "List payments, newest first")
      .annotate(
        OpenApi.Description,
        "The payments of this key's mode, newest first, one page at a time (`limit`, `starting_after`), " +
          "optionally filtered by status, provider, currency, customer or test clock."
      )
  )
  .add(
    retrieveById("/payments/:id", Payment, PaymentNotFound, "Retrieve a payment")
      .annotate(
        OpenApi.Description,
        "The payment as it stands now, with every attempt made at a provider. Poll it after a 3D Secure " +
          "return or while it is `processing`, or rely on the `payment.*` webhooks instead."
      )
  )
  .add(
    paymentCommand("capture", "/payments/:id/capture", CapturePayment)
      .addError(apiErrorOf(AmountTooLarge))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .addError(apiErrorOf(ProviderUnavailable))
      .addError(apiErrorOf(ProviderTimeout))
      .annotate(OpenApi.Summary, "Capture an authorized payment, in full or in part")
      .annotate(
        OpenApi.Description,
        "Takes the money of a payment in `requires_capture` (made with `capture: false`): all of it, or `amount` " +
          "if less; the rest is released. The payment becomes `succeeded` with `amount_captured`. Uncaptured " +
          "authorizations are released after 7 days."
      )
  )
  .add(
    paymentCommand("cancel", "/payments/:id/cancel", CancelPayment)
      .addError(apiErrorOf(IdempotencyKeyReused))
      .addError(apiErrorOf(ProviderUnavailable))
      .addError(apiErrorOf(ProviderTimeout))
      .annotate(OpenApi.Summary, "Cancel a payment that is not yet settled")
      .annotate(
        OpenApi.Description,
        "Cancels a payment in `created`, `requires_action` or `requires_capture`, releasing an authorization at " +
          "the provider. A succeeded payment cannot be canceled: refund it instead."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Payments")
  .annotate(
    OpenApi.Description,
    "A payment moves money from a customer's payment method (a card token, or a wallet such as PayPal) through " +
      "one of your provider connections. It goes `created` → `processing` → `succeeded`, `failed`, `requires_action` " +
      "(3D Secure) or `requires_capture` (manual capture), and can be `canceled` before it settles. Each move is an " +
      "event (`payment.succeeded`, …). Amounts are integers in minor units. Try the sandbox tokens `tok_visa`, " +
      "`tok_chargeDeclined`, `tok_threeDSecureRequired`; see the quick start at /docs/guides/quick-start."
  )
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
      .addError(apiErrorOf(PaymentNotFound))
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
  .annotate(
    OpenApi.Description,
    "The page a provider sends the customer back to after 3D Secure or a wallet approval. The service builds " +
      "this URL itself and gives it to the provider; you never call it. It settles the payment and redirects the " +
      "customer to your `return_url`. See /docs/guides/3d-secure."
  )
{}
