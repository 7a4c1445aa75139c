import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { CreateRefund, Refund } from "@orchestrator/core/refunds/Refund"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { RequiredIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { AmountTooLarge, PaymentNotFound, PaymentNotRefundable } from "../payments/PaymentErrors.js"
import { RefundFailed, RefundNotFound } from "./RefundErrors.js"

export const RefundList = ListOf(Refund).annotations({ identifier: "RefundList" })

export const RefundListQuery = ListQuery({ payment_id: Schema.optional(Identifier) })

export class RefundsApi extends HttpApiGroup.make("refunds")
  .add(
    HttpApiEndpoint.post("create", "/payments/:id/refund")
      .setPath(ById)
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreateRefund)
      .addSuccess(Refund, { status: 201 })
      .addError(RefundFailed)
      .addError(PaymentNotFound)
      .addError(PaymentNotRefundable)
      .addError(IdempotencyKeyInUse)
      .addError(AmountTooLarge)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Refund a payment, in full or in part")
  )
  .add(
    retrieveById("/refunds/:id", Refund, RefundNotFound, "Retrieve a refund")
  )
  .add(
    listPage("/refunds", RefundListQuery, RefundList, "List refunds, newest first")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Refunds")
{}
