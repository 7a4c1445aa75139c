import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { listFailures } from "@orchestrator/api/CommonErrors"
import { paymentFailures } from "@orchestrator/api/payments/PaymentErrors"
import { refundFailures } from "@orchestrator/api/refunds/RefundErrors"
import { RefundsApi } from "@orchestrator/api/refunds/RefundsApi"
import { pageRequestOf, toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Refunds } from "@orchestrator/core/refunds/Refunds"
import { Effect } from "effect"
import { idempotent } from "../IdempotentEndpoint.js"

export const RefundsHttpLive = HttpApiBuilder.group(Api, "refunds", (handlers) =>
  Effect.gen(function*() {
    const refunds = yield* Refunds
    const answering = answeringWith({ ...refundFailures, ...paymentFailures })
    return handlers
      .handle(
        "create",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotent(
              RefundsApi.endpoints.create,
              { key: headers["idempotency-key"], path, payload },
              answering(refunds.create(tenant, path.id, payload))
            )),
        { uninterruptible: true }
      )
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(refunds.retrieve(tenant, path.id))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          refunds.list(tenant, { paymentId: urlParams.payment_id }, pageRequestOf(urlParams)).pipe(
            Effect.map(toList),
            answeringWith(listFailures)
          )))
  }))
