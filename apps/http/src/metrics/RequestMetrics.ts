import { countNow, httpRequestDuration, httpRequestsTotal, observeNow } from "@orchestrator/core"
import { Effect } from "effect"
import { methodLabel, routeTemplateOf } from "./RouteTemplates.js"

/** Counts one answered request under its route template, method and status, and its latency: one step, a few microseconds. */
export const recordRequest = (method: string, path: string, status: number, elapsedMs: number) =>
  Effect.sync(() => {
    const route = routeTemplateOf(path)
    const verb = methodLabel(method)
    countNow(httpRequestsTotal, { route, method: verb, status: String(status) })
    observeNow(httpRequestDuration, { route, method: verb }, elapsedMs / 1000)
  })
