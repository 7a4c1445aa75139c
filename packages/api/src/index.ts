/**
 * The front door of the HTTP contract: the `Api` (every group and endpoint, from which the server, the
 * typed client and the OpenAPI document are made), its middlewares, and how failures answer over HTTP.
 */

// The contract
export { Api } from "./Api.js"
export { CheckoutSessionApi, CheckoutSessionsApi } from "./checkout/CheckoutApi.js"
export { DisputesApi } from "./disputes/DisputesApi.js"
export { FilesApi } from "./files/FilesApi.js"
export { NotReady } from "./health/HealthApi.js"
export { OrganizationApi } from "./organization/OrganizationApi.js"
export { PaymentsApi } from "./payments/PaymentsApi.js"
export { ProvidersApi } from "./providers/ProvidersApi.js"
export { publicRoutesAt } from "./PublicRoutes.js"
export { RefundsApi } from "./refunds/RefundsApi.js"
export { RoutingApi } from "./routing/RoutingApi.js"
export { CustomersApi } from "./subscriptions/CustomersApi.js"
export { PlansApi } from "./subscriptions/PlansApi.js"
export { SubscriptionsApi } from "./subscriptions/SubscriptionsApi.js"
export { TestClocksApi } from "./subscriptions/TestClocksApi.js"
export { CardFormApi } from "./vault/CardFormApi.js"
export { PaymentMethodsApi } from "./vault/PaymentMethodsApi.js"
export { WebhooksApi } from "./webhooks/WebhooksApi.js"

// Middlewares: who is calling
export { Authorization } from "./Authorization.js"
export { CheckoutAuthorization, CheckoutCaller } from "./checkout/CheckoutAuthorization.js"
export { CardFormAuthorization } from "./vault/CardFormAuthorization.js"

// Failures: a core failure answers as `apiErrorOf` its class (status and type by its kind, `FAILURE_KINDS`);
// the transport's own answers are below it
export {
  answering,
  type ApiErrorClass,
  apiErrorOf,
  type ApiErrorShape,
  type ApiFailure,
  CurrentRequestId,
  encodeApiError,
  failAs,
  failWith,
  isApiError,
  retryAfterSeconds,
  statusOf
} from "./ApiError.js"
export { InternalError, InvalidRequest, PayloadTooLarge, RouteNotFound, ServiceUnavailable } from "./CommonErrors.js"
export { FAILURE_KINDS } from "./FailureKinds.js"
export { HeadersTooLarge, MethodNotImplemented, RequestTimeout } from "./ProtocolErrors.js"

// The reference's recorded examples
export { withStoredExamples } from "./examples/ExampleTransform.js"
export {
  type EventExample,
  type ExampleFormFile,
  type ExamplePreparation,
  type ExampleRequest,
  type ExampleResponse,
  type OperationExamples,
  type StoredExample
} from "./examples/StoredExample.js"
export { storedEvents } from "./examples/StoredExamples.js"
export { storedOperations } from "./examples/StoredExamples.js"
