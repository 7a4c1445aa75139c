import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AmountTooLarge,
  CreateRefund,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  ListOf,
  optionalField,
  PaymentNotFound,
  PaymentNotRefundable,
  Refund,
  RefundNotFound,
  RefundRefused
} from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { RequiredIdempotencyKey } from "../Headers.js"

export const RefundList = ListOf(Refund).annotations({ identifier: "RefundList" })

export const RefundListQuery = ListQuery({ payment_id: optionalField(Identifier, "Only the refunds of this payment (`pay_…`).") })

export class RefundsApi extends HttpApiGroup.make("refunds")
  .add(
    HttpApiEndpoint.post("create", "/payments/:id/refund")
      .setPath(ById)
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreateRefund)
      .addSuccess(Refund, { status: 201 })
      .addError(apiErrorOf(RefundRefused))
      .addError(apiErrorOf(PaymentNotFound))
      .addError(apiErrorOf(PaymentNotRefundable))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(AmountTooLarge))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Refund a payment, in full or in part")
      .annotate(
        OpenApi.Description,
        "Gives money back on a `succeeded` payment: `amount` if given, else whatever is left to refund. Several " +
          "partial refunds may follow one another until the captured amount is used up. Answers 201 with the refund " +
          "`pending` or `succeeded` (a `refund.succeeded` or `refund.failed` event follows a pending one); a refusal by " +
          "the provider answers 402 with the failed refund inside the error. `Idempotency-Key` is required."
      )
  )
  .add(
    retrieveById("/refunds/:id", Refund, RefundNotFound, "Retrieve a refund")
      .annotate(OpenApi.Description, "The refund as it stands now: `pending` until the provider confirms it.")
  )
  .add(
    listPage("/refunds", RefundListQuery, RefundList, "List refunds, newest first")
      .annotate(OpenApi.Description, "The refunds of this key's mode, newest first; `payment_id` narrows them to one payment.")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Refunds")
  .annotate(
    OpenApi.Description,
    "A refund returns all or part of a succeeded payment to the customer, through the provider that took it. " +
      "It is `pending` until the provider confirms it, then `succeeded` or `failed` (a failed refund's amount is " +
      "refundable again). The payment's `amount_refunded` counts pending and succeeded refunds."
  )
{}
