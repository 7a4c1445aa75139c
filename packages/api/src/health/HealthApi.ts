import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { InternalError } from "../CommonErrors.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok").annotations({ description: "Always `ok`." }) })

export class NotReady extends Schema.Class<NotReady>("NotReady")(
  {
    status: Schema.Literal("unavailable").annotations({ description: "Always `unavailable`." }),
    reason: Schema.String.annotations({ description: "Why: the database does not answer, or a migration is not applied." })
  },
  HttpApiSchema.annotations({ status: 503, description: "Not ready: the database does not answer or is not migrated" })
) {}

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "The process is up")
      .annotate(OpenApi.Description, "Liveness: answers 200 while the process runs, without touching the database. No API key.")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Health)
      .addError(NotReady)
      .addError(InternalError)
      .annotate(OpenApi.Summary, "The database is reachable and every migration is applied")
      .annotate(
        OpenApi.Description,
        "Readiness: 200 when the database answers and every migration is applied, else 503 with the reason. " +
          "Point a load balancer's health check here. No API key."
      )
  )
  .annotate(OpenApi.Title, "Health")
  .annotate(
    OpenApi.Description,
    "Probes for orchestrators and load balancers, outside `/v1` and without an API key: `/healthz` says the " +
      "process is up, `/readyz` that it can serve (database reachable and migrated)."
  )
{}
