/** The front door of @orchestrator/api: everything another package may use. */
export { Api } from "./Api.js"
export { answeringWith, type ApiErrorShape, CurrentRequestId, encodeApiError, failWith, isApiError, statusOf } from "./ApiError.js"
export { Authorization } from "./Authorization.js"
export { CheckoutSessionApi, CheckoutSessionsApi } from "./checkout/CheckoutApi.js"
export { CheckoutAuthorization, CheckoutCaller } from "./checkout/CheckoutAuthorization.js"
export { checkoutFailures } from "./checkout/CheckoutErrors.js"
export {
  AuthenticationRequired,
  InternalError,
  InvalidRequest,
  listFailures,
  PayloadTooLarge,
  RateLimitExceeded,
  retryAfterSeconds,
  RouteNotFound,
  ServiceUnavailable
} from "./CommonErrors.js"
export { eventFailures } from "./events/EventErrors.js"
export { withStoredExamples } from "./examples/ExampleTransform.js"
export {
  type EventExample,
  type ExamplePreparation,
  type ExampleRequest,
  type ExampleResponse,
  type OperationExamples,
  type StoredExample
} from "./examples/StoredExample.js"
export { storedEvents } from "./examples/StoredExamples.js"
export { NotReady } from "./health/HealthApi.js"
export { idempotencyFailures } from "./idempotency/IdempotencyErrors.js"
export { OrganizationApi } from "./organization/OrganizationApi.js"
export { organizationFailures } from "./organization/OrganizationErrors.js"
export { paymentFailures } from "./payments/PaymentErrors.js"
export { PaymentsApi } from "./payments/PaymentsApi.js"
export { HeadersTooLarge, MethodNotImplemented, RequestTimeout } from "./ProtocolErrors.js"
export { connectionFailures, providerFailures, providerWebhookFailures } from "./providers/ProviderErrors.js"
export { ProvidersApi } from "./providers/ProvidersApi.js"
export { publicRoutesAt } from "./PublicRoutes.js"
export { refundFailures } from "./refunds/RefundErrors.js"
export { RefundsApi } from "./refunds/RefundsApi.js"
export { resourceLimitFailures } from "./ResourceLimitErrors.js"
export { RoutingApi } from "./routing/RoutingApi.js"
export { routingFailures } from "./routing/RoutingErrors.js"
export { billingFailures } from "./subscriptions/BillingErrors.js"
export { CustomersApi } from "./subscriptions/CustomersApi.js"
export { PlansApi } from "./subscriptions/PlansApi.js"
export { SubscriptionsApi } from "./subscriptions/SubscriptionsApi.js"
export { TestClocksApi } from "./subscriptions/TestClocksApi.js"
export { webhookFailures } from "./webhooks/WebhookErrors.js"
export { WebhooksApi } from "./webhooks/WebhooksApi.js"
