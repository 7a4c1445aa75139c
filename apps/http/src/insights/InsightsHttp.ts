import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { paymentFailures } from "@orchestrator/api/payments/PaymentErrors"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { DEFAULT_INSIGHT_HOURS, InsightsReader } from "@orchestrator/core/insights/InsightsReader"
import { Effect } from "effect"

export const InsightsHttpLive = HttpApiBuilder.group(Api, "insights", (handlers) =>
  Effect.map(InsightsReader, (reader) =>
    handlers
      .handle("insights", ({ urlParams }) => Effect.flatMap(CurrentTenant, (tenant) => reader.insights(tenant, urlParams.hours ?? DEFAULT_INSIGHT_HOURS)))
      .handle(
        "paymentTimeline",
        ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => reader.paymentTimeline(tenant, path.id).pipe(answeringWith(paymentFailures)))
      )))
