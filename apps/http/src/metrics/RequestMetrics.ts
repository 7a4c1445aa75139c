import { countWith, httpRequestDuration, httpRequestsTotal, observeWith } from "@orchestrator/core/observability/ServiceMetrics"
import { Effect } from "effect"
import { methodLabel, routeTemplateOf } from "./RouteTemplates.js"

/** Counts one answered request under its route template, method and status, and its latency. */
export const recordRequest = (method: string, path: string, status: number, elapsedMs: number) =>
  Effect.suspend(() => {
    const route = routeTemplateOf(path)
    const verb = methodLabel(method)
    return Effect.zipRight(
      countWith(httpRequestsTotal, { route, method: verb, status: String(status) }),
      observeWith(httpRequestDuration, { route, method: verb }, elapsedMs / 1000)
    )
  })
