import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { InternalError } from "../CommonErrors.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })

export class NotReady extends Schema.Class<NotReady>("NotReady")(
  { status: Schema.Literal("unavailable"), reason: Schema.String },
  HttpApiSchema.annotations({ status: 503 })
) {}

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Health).annotate(OpenApi.Summary, "The process is up")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Health)
      .addError(NotReady)
      .addError(InternalError)
      .annotate(OpenApi.Summary, "The database is reachable and every migration is applied")
  )
  .annotate(OpenApi.Title, "Health")
{}
