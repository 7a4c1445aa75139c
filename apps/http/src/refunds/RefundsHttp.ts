import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, RefundsApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, Refunds, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const RefundsHttpLive = HttpApiBuilder.group(Api, "refunds", (handlers) =>
  Effect.gen(function*() {
    const refunds = yield* Refunds
    return handlers
      .handle(
        "create",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(RefundsApi.endpoints.create, { key: headers["idempotency-key"], path, payload }, {}, (run) =>
              refunds.create(tenant, path.id, payload, run))),
        { uninterruptible: true }
      )
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(refunds.retrieve(tenant, path.id))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          refunds.list(tenant, { paymentId: urlParams.payment_id }, pageRequestOf(urlParams)).pipe(
            Effect.map(toList),
            answering
          )))
  }))
