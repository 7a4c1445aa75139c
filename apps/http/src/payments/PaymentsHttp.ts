import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, PaymentsApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, Payment, Payments, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { keyedRequest, keyedResponse, underKey } from "../KeyedAnswers.js"

const endpoints = PaymentsApi.endpoints

export const PaymentsHttpLive = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    return handlers
      .handle(
        "create",
        ({ headers, payload }) =>
          Effect.gen(function*() {
            const keyed = yield* keyedRequest(endpoints.create, { key: headers["idempotency-key"], payload })
            return yield* keyedResponse(endpoints.create, yield* payments.createUnderKey(yield* CurrentTenant, payload, keyed))
          }).pipe(answering),
        // A client hanging up must not stop a payment half way.
        { uninterruptible: true }
      )
      .handle("list", ({ urlParams: { limit, starting_after, ...filter } }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          payments.list(tenant, filter, pageRequestOf({ limit, starting_after })).pipe(
            Effect.map(toList),
            answering
          )))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(payments.retrieve(tenant, path.id))))
      .handle(
        "capture",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(
              endpoints.capture,
              { key: headers["idempotency-key"], path, payload },
              { schema: Payment },
              (run) => payments.capture(tenant, path.id, payload ?? {}, run)
            )),
        { uninterruptible: true }
      )
      .handle(
        "cancel",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(
              endpoints.cancel,
              { key: headers["idempotency-key"], path, payload },
              { schema: Payment },
              (run) => payments.cancel(tenant, path.id, payload ?? {}, run)
            )),
        { uninterruptible: true }
      )
  }))
