import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { DecimalInteger, DEFAULT_INSIGHT_HOURS, Insights, MAX_INSIGHT_HOURS, PaymentNotFound, PaymentTimeline } from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById } from "../Endpoints.js"

export const InsightsQuery = Schema.Struct({
  hours: Schema.optional(
    DecimalInteger(
      1,
      MAX_INSIGHT_HOURS,
      `The window, in hours back from now: 1 to ${MAX_INSIGHT_HOURS} (default ${DEFAULT_INSIGHT_HOURS})`
    )
  )
}).annotations({ parseOptions: { onExcessProperty: "error" } })

/** Read-only views across capabilities, for the dashboard and for anyone watching the service. */
export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    HttpApiEndpoint.get("insights", "/insights")
      .setUrlParams(InsightsQuery)
      .addSuccess(Insights)
      .annotate(OpenApi.Summary, "How each provider did over a window, and how webhooks fared")
      .annotate(
        OpenApi.Description,
        "Per provider (as payments name it): payment attempts, how many succeeded (`succeeded` or `requires_capture`) " +
          "and failed, the success rate of the settled ones and the mean PSP latency, in total and per bucket " +
          "(`bucket_minutes`: hourly up to 48 hours, daily beyond; empty buckets included, oldest first). " +
          "`deliveries` counts the webhook deliveries created in the window by their status now."
      )
  )
  .add(
    HttpApiEndpoint.get("paymentTimeline", "/payments/:id/timeline")
      .setPath(ById)
      .addSuccess(PaymentTimeline)
      .addError(apiErrorOf(PaymentNotFound))
      .annotate(OpenApi.Summary, "A payment's events and its refunds', with the webhook deliveries of each")
      .annotate(
        OpenApi.Description,
        "Oldest first, up to 200 events (kept 30 days). Deliveries are listed without their attempts; retrieve one for those."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Insights")
  .annotate(
    OpenApi.Description,
    "Read-only views for watching the service: how each provider is doing (success rate, latency) and how " +
      "webhooks fare, and the whole story of one payment. The dashboard at `/dashboard` is built on them."
  )
{}
