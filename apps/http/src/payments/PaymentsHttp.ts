import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { listFailures } from "@orchestrator/api/CommonErrors"
import { paymentFailures } from "@orchestrator/api/payments/PaymentErrors"
import { PaymentsApi } from "@orchestrator/api/payments/PaymentsApi"
import { providerFailures } from "@orchestrator/api/providers/ProviderErrors"
import { pageRequestOf, toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Payments } from "@orchestrator/core/payments/Payments"
import { Effect } from "effect"
import { idempotent } from "../IdempotentEndpoint.js"

const endpoints = PaymentsApi.endpoints

export const PaymentsHttpLive = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const answering = answeringWith({ ...paymentFailures, ...providerFailures })
    return handlers
      .handle(
        "create",
        ({ headers, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotent(
              endpoints.create,
              { key: headers["idempotency-key"], payload, reserveId: "pay" },
              answering(payments.create(tenant, payload))
            )),
        // A client hanging up must not stop a payment half way.
        { uninterruptible: true }
      )
      .handle("list", ({ urlParams: { limit, starting_after, ...filter } }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          payments.list(tenant, filter, pageRequestOf({ limit, starting_after })).pipe(
            Effect.map(toList),
            answeringWith(listFailures)
          )))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => answering(payments.retrieve(tenant, path.id))))
      .handle(
        "capture",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotent(
              endpoints.capture,
              { key: headers["idempotency-key"], path, payload },
              answering(payments.capture(tenant, path.id, payload ?? {}))
            )),
        { uninterruptible: true }
      )
      .handle(
        "cancel",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotent(
              endpoints.cancel,
              { key: headers["idempotency-key"], path, payload },
              answering(payments.cancel(tenant, path.id, payload ?? {}))
            )),
        { uninterruptible: true }
      )
  }))
