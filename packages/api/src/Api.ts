import { HttpApi, OpenApi } from "@effect/platform"
import { API_VERSION } from "@orchestrator/core"
import { CheckoutSessionApi, CheckoutSessionsApi } from "./checkout/CheckoutApi.js"
import { withCheckoutSecuritySchemes } from "./checkout/CheckoutAuthorization.js"
import { InternalError, INVALID_REQUEST, InvalidRequest, PayloadTooLarge, RouteNotFound } from "./CommonErrors.js"
import { DisputesApi } from "./disputes/DisputesApi.js"
import { EventsApi } from "./events/EventsApi.js"
import { withStoredExamples } from "./examples/ExampleTransform.js"
import { FilesApi } from "./files/FilesApi.js"
import { HealthApi } from "./health/HealthApi.js"
import { InsightsApi } from "./insights/InsightsApi.js"
import { documented } from "./openapi/Documented.js"
import { INTRODUCTION } from "./openapi/Introduction.js"
import { OrganizationApi } from "./organization/OrganizationApi.js"
import { PaymentReturnApi, PaymentsApi } from "./payments/PaymentsApi.js"
import { ProvidersApi, ProviderWebhooksApi } from "./providers/ProvidersApi.js"
import { RefundsApi } from "./refunds/RefundsApi.js"
import { RoutingApi } from "./routing/RoutingApi.js"
import { CustomersApi } from "./subscriptions/CustomersApi.js"
import { InvoicesApi } from "./subscriptions/InvoicesApi.js"
import { PlansApi } from "./subscriptions/PlansApi.js"
import { SubscriptionsApi } from "./subscriptions/SubscriptionsApi.js"
import { TestClocksApi } from "./subscriptions/TestClocksApi.js"
import { CardFormApi } from "./vault/CardFormApi.js"
import { withCardFormSecurityScheme } from "./vault/CardFormAuthorization.js"
import { PaymentMethodsApi } from "./vault/PaymentMethodsApi.js"
import { WebhooksApi } from "./webhooks/WebhooksApi.js"

/**
 * The framework declares its own decode error (400) on every endpoint. This service answers every
 * decode failure with its `InvalidRequest` body instead, so the document must not advertise a shape
 * that is never sent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as the JSON it is
const withoutFrameworkDecodeError = (spec: Record<string, any>) => {
  const ref = "#/components/schemas/HttpApiDecodeError"
  /* eslint-disable @typescript-eslint/no-explicit-any -- as above */
  for (const path of Object.values<any>(spec.paths ?? {})) {
    for (const operation of Object.values<any>(path)) {
      const invalid = operation?.responses?.["400"]
      const content = invalid?.content?.["application/json"]
      if (content?.schema?.anyOf !== undefined) {
        const rest = content.schema.anyOf.filter((schema: any) => schema.$ref !== ref)
        content.schema = rest.length === 1 ? rest[0] : { anyOf: rest }
        invalid.description = INVALID_REQUEST
      }
    }
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) delete spec.components?.schemas?.[name]
  return spec
}

/**
 * The whole HTTP contract. The server implements it, and the typed client and the OpenAPI document
 * at `/v1/openapi.json` are derived from it. Each capability adds its group here.
 */
export class Api extends HttpApi.make("orchestrator")
  .add(PaymentsApi)
  .add(PaymentReturnApi)
  .add(RefundsApi)
  .add(DisputesApi)
  .add(FilesApi)
  .add(PaymentMethodsApi)
  .add(CardFormApi)
  .add(EventsApi)
  .add(WebhooksApi)
  .add(ProvidersApi)
  .add(RoutingApi)
  .add(OrganizationApi)
  .add(ProviderWebhooksApi)
  .add(CustomersApi)
  .add(PlansApi)
  .add(SubscriptionsApi)
  .add(InvoicesApi)
  .add(TestClocksApi)
  .add(HealthApi)
  .add(InsightsApi)
  .add(CheckoutSessionsApi)
  .add(CheckoutSessionApi)
  .addError(InvalidRequest)
  .addError(RouteNotFound)
  .addError(PayloadTooLarge)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Payment Orchestration Service")
  .annotate(OpenApi.Version, API_VERSION)
  .annotate(OpenApi.Description, INTRODUCTION)
  // Examples last: they attach event payloads to the `webhooks` section `documented` builds.
  .annotate(
    OpenApi.Transform,
    (spec) => withStoredExamples(documented(withCardFormSecurityScheme(withCheckoutSecuritySchemes(withoutFrameworkDecodeError(spec)))))
  )
{}
