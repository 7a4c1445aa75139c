import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, PaymentsApi } from "@orchestrator/api"
import { CurrentTenant, pageRequestOf, Payments, type Tenant, toList } from "@orchestrator/core"
import { Effect, Option } from "effect"
import { idempotent } from "../IdempotentEndpoint.js"

const endpoints = PaymentsApi.endpoints

export const PaymentsHttpLive = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    /**
     * A retry of a create whose payment was still `processing`: the PSP is asked for the outcome as
     * reconciliation would (the same attempt resent under its own PSP idempotency key), and the
     * payment as it stands then is the answer. A refusal found this way is in the payment itself.
     */
    const settleReplayed = (tenant: Tenant, stored: unknown) => {
      const { id, status } = (stored ?? {}) as { readonly id?: unknown; readonly status?: unknown }
      if (status !== "processing" || typeof id !== "string") return Effect.succeed(Option.none())
      return payments.resume(tenant, id).pipe(
        Effect.orElse(() => payments.retrieve(tenant, id)),
        Effect.option
      )
    }
    return handlers
      .handle(
        "create",
        ({ headers, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotent(
              endpoints.create,
              {
                key: headers["idempotency-key"],
                payload,
                reserveId: "pay",
                ride: true,
                refreshReplay: (stored) => settleReplayed(tenant, stored)
              },
              answering(payments.create(tenant, payload))
            )),
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
