import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { RefundList } from "@orchestrator/api/RefundsApi"
import { CreateRefund, Refund } from "@orchestrator/core/refunds/Refund"
import { Refunds } from "@orchestrator/core/refunds/Refunds"
import { toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Effect, Option, Schema } from "effect"
import { failWithDomainError } from "./ErrorBodies.js"
import { idempotentEndpoint } from "./IdempotentEndpoint.js"
import { respond } from "./Responses.js"

const encodeCreate = Schema.encodeSync(CreateRefund)

export const RefundsHttpLive = HttpApiBuilder.group(Api, "refunds", (handlers) =>
  Effect.gen(function*() {
    const refunds = yield* Refunds
    return handlers
      .handle(
        "create",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotentEndpoint({
              key: headers["idempotency-key"],
              method: "POST",
              path: `/v1/payments/${path.id}/refund`,
              body: encodeCreate(payload),
              success: Refund,
              status: 201,
              run: ({ attach, recovered }) =>
                Option.match(recovered, {
                  onNone: () => refunds.create(tenant, path.id, payload, attach),
                  onSome: (id) => refunds.resume(tenant, id)
                }).pipe(Effect.catchAll(failWithDomainError))
            })),
        { uninterruptible: true }
      )
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => refunds.retrieve(tenant, path.id)).pipe(
          Effect.catchAll(failWithDomainError),
          respond(Refund)
        ))
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const page = yield* refunds.list(yield* CurrentTenant, { paymentId: urlParams.payment_id }, {
            limit: urlParams.limit ?? 20,
            startingAfter: urlParams.starting_after
          })
          return toList(page)
        }).pipe(Effect.catchAll(failWithDomainError), respond(RefundList)))
  }))
