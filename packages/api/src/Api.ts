import { HttpApi, OpenApi } from "@effect/platform"
import { API_VERSION } from "@orchestrator/core/events/Event"
import { InternalError } from "./ApiErrors.js"
import { HealthApi } from "./HealthApi.js"
import { PaymentReturnApi, PaymentsApi } from "./PaymentsApi.js"
import { RefundsApi } from "./RefundsApi.js"

/**
 * The whole HTTP contract. The server implements it, and the typed client and the OpenAPI document
 * at `/v1/openapi.json` are derived from it.
 */
export class Api extends HttpApi.make("orchestrator")
  .add(PaymentsApi)
  .add(PaymentReturnApi)
  .add(RefundsApi)
  .add(HealthApi)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Payment Orchestration Service")
  .annotate(OpenApi.Version, API_VERSION)
  .annotate(
    OpenApi.Description,
    "Create and process payments and refunds through external PSPs. Amounts are integers in minor units."
  )
{}

// `HttpApi.make` declares the framework's own decode error (400) on every endpoint. This service
// answers every decode failure with its `InvalidRequest` body instead (apps/http Edge.ts), so the
// OpenAPI document and the client must not advertise a shape that is never sent.
Object.assign(Api, { errorSchema: InternalError })
