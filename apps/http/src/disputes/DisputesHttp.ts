import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, DisputesApi } from "@orchestrator/api"
import { CurrentTenant, Dispute, Disputes, pageRequestOf, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const DisputesHttpLive = HttpApiBuilder.group(Api, "disputes", (handlers) =>
  Effect.gen(function*() {
    const disputes = yield* Disputes
    const { endpoints } = DisputesApi
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          disputes.list(tenant, {
            status: urlParams.status,
            paymentId: urlParams.payment_id,
            provider: urlParams.provider,
            dueBefore: urlParams.due_before
          }, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering)))
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(disputes.retrieve(tenant, path.id))))
      .handle("evidence", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(endpoints.evidence, { key: headers["idempotency-key"], path, payload }, { schema: Dispute }, () =>
            disputes.updateEvidence(tenant, path.id, payload ?? {}))))
      .handle(
        "submit",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(endpoints.submit, { key: headers["idempotency-key"], path, payload }, { schema: Dispute }, () =>
              disputes.submit(tenant, path.id))),
        { uninterruptible: true }
      )
      .handle(
        "accept",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(endpoints.accept, { key: headers["idempotency-key"], path, payload }, { schema: Dispute }, () =>
              disputes.accept(tenant, path.id))),
        { uninterruptible: true }
      )
  }))
