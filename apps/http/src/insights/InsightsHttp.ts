import { HttpApiBuilder } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CurrentTenant, DEFAULT_INSIGHT_HOURS, InsightsReader } from "@orchestrator/core"
import { Effect } from "effect"

export const InsightsHttpLive = HttpApiBuilder.group(Api, "insights", (handlers) =>
  Effect.map(InsightsReader, (reader) =>
    handlers
      .handle("insights", ({ urlParams }) => Effect.flatMap(CurrentTenant, (tenant) => reader.insights(tenant, urlParams.hours ?? DEFAULT_INSIGHT_HOURS)))
      .handle(
        "paymentTimeline",
        ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => reader.paymentTimeline(tenant, path.id).pipe(answering))
      )))
