/**
 * The front door of the core, and its only door: every other package and app imports the core from
 * here. Read it as a host does: what to compose, the ports to provide (an adapter package implements
 * them), the services to call, the errors they fail with, the events they emit, and the records and
 * values they speak in.
 */

// Composition: what a host puts together
export { BackgroundJobs, tracedPass } from "./BackgroundJobs.js"
export { CoreLive, CoreMemory, type CoreServices } from "./CoreLive.js"
export { type CorePorts, type StoragePorts } from "./CorePorts.js"
export { StorageMemory } from "./memory/StorageMemory.js"

// Ports: what a host (or an adapter package) provides
export { type CheckoutSessionRef, CheckoutSessionsRepository } from "./checkout/CheckoutSessionsRepository.js"
export { EventsRepository, type StoredEvent } from "./events/EventsRepository.js"
export { IdempotencyKeysRepository, type KeyCompletion } from "./idempotency/IdempotencyKeysRepository.js"
export { InsightsRepository, TIMELINE_LIMIT } from "./insights/InsightsRepository.js"
export { type RecordRepository, type RecordStore } from "./lifecycle/Lifecycle.js"
export { type Rate, type RateDecision, RateLimiter } from "./limits/RateLimiter.js"
export { PaymentsRepository, type PaymentWork } from "./payments/PaymentsRepository.js"
export { ExtraJobs, type Job, Jobs } from "./ports/Jobs.js"
export { type Leased, type LeaseRequest } from "./ports/LeasedWork.js"
export { PublicUrls } from "./ports/PublicUrls.js"
export { Readiness } from "./ports/Readiness.js"
export { Transactions } from "./ports/Transactions.js"
export { ConnectorCatalog, Connectors, UnknownConnectorType } from "./providers/Connectors.js"
export {
  type ActionCompletion,
  AuthorizationOutcome,
  type AuthorizeRequest,
  type BrowserDetails,
  CaptureOutcome,
  type CardDetails,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorError,
  ConnectorOutcomeUnknown,
  ConnectorUnavailable,
  type CustomerDetails,
  type IncomingWebhook,
  MissingSecret,
  ModificationOutcome,
  type NativeInvoice,
  type NativeSubscriptionReport,
  type NativeSubscriptionRequest,
  type NativeSubscriptions,
  type NativeSubscriptionStatus,
  type PaymentConnector,
  ProviderEvent,
  RefundOutcome,
  type StoredCredential,
  WebhookRejected
} from "./providers/PaymentConnector.js"
export { ProviderConnectionsRepository } from "./providers/ProviderConnectionsRepository.js"
export { StoredProviderEvent } from "./providers/ProviderEvent.js"
export { ProviderEventsRepository, type ReceivedEvent } from "./providers/ProviderEventsRepository.js"
export { type RefundRef, RefundsRepository } from "./refunds/RefundsRepository.js"
export { RoutingRulesRepository } from "./routing/RoutingRulesRepository.js"
export { CustomersRepository } from "./subscriptions/CustomersRepository.js"
export { InvoicesRepository } from "./subscriptions/InvoicesRepository.js"
export { PlansRepository } from "./subscriptions/PlansRepository.js"
export { type DueSubscription, SubscriptionsRepository } from "./subscriptions/SubscriptionsRepository.js"
export { type AbandonedAdvance, TestClocksRepository } from "./subscriptions/TestClocksRepository.js"
export { ApiKeysRepository } from "./tenancy/ApiKeysRepository.js"
export { constantTimeEqual, hashApiKey, KeyMaterial } from "./tenancy/KeyMaterial.js"
export { OrganizationsRepository } from "./tenancy/OrganizationsRepository.js"
export { type DueDelivery, WebhookDeliveriesRepository } from "./webhooks/WebhookDeliveriesRepository.js"
export { WebhookEndpointsRepository } from "./webhooks/WebhookEndpointsRepository.js"
export { type WebhookRequest, type WebhookResponse, WebhookSender } from "./webhooks/WebhookSender.js"

// Services: what a host calls
export { CheckoutSessions } from "./checkout/CheckoutSessions.js"
export { IdempotentRequests, keptAnswerOf, KEY_LOCK, KEY_RETENTION, succeededAnswer } from "./idempotency/IdempotentRequests.js"
export { InsightsReader } from "./insights/InsightsReader.js"
export { FailedAuthentications } from "./limits/FailedAuthentications.js"
export { RateLimits } from "./limits/RateLimits.js"
export { PaymentPolicy } from "./payments/PaymentPolicy.js"
export { Payments } from "./payments/Payments.js"
export { ConnectionSecrets } from "./providers/ConnectionSecrets.js"
export { ProviderConnections } from "./providers/ProviderConnections.js"
export { ProviderWebhooks } from "./providers/ProviderWebhooks.js"
export { Refunds } from "./refunds/Refunds.js"
export { RoutingRules } from "./routing/RoutingRules.js"
export { Customers } from "./subscriptions/Customers.js"
export { Invoices } from "./subscriptions/Invoices.js"
export { Plans } from "./subscriptions/Plans.js"
export { Subscriptions } from "./subscriptions/Subscriptions.js"
export { TestClocks } from "./subscriptions/TestClocks.js"
export { Authentication } from "./tenancy/Authentication.js"
export { Organizations } from "./tenancy/Organizations.js"
export { WebhookDeliveries } from "./webhooks/WebhookDeliveries.js"
export { WebhookEndpoints } from "./webhooks/WebhookEndpoints.js"

// Errors: every failure the services answer with. Each class declares its kind (what it means to any
// caller), its codes and description once, and says its own message (`answer`); the HTTP API derives
// its error classes from these, the command-line tool its messages.
export { CheckoutMethodNotAllowed, CheckoutSessionNotFound, CheckoutSessionStateConflict, ClientSecretRejected } from "./checkout/CheckoutErrors.js"
export {
  type Failing,
  type FailureAnswer,
  failureBodyOf,
  type FailureClass,
  failureClassOf,
  type FailureKind,
  type FailureSpec,
  isFailing,
  NotFound,
  ServiceFailure,
  type TagOf,
  transientKinds
} from "./domain/Failure.js"
export { InvalidCursor } from "./domain/Pagination.js"
export { EgressFailure } from "./egress/EgressFailure.js"
export { EventNotFound } from "./events/Events.js"
export { IdempotencyKeyInUse, IdempotencyKeyReused } from "./idempotency/IdempotencyKey.js"
export { TooManyFailedAuthentications } from "./limits/FailedAuthentications.js"
export { RateLimited } from "./limits/RateLimits.js"
export { ResourceLimitExceeded } from "./limits/ResourceLimits.js"
export {
  AmountTooLarge,
  PaymentCustomerNotFound,
  PaymentNotFound,
  PaymentNotRefundable,
  PaymentRefused,
  PaymentStateConflict,
  ProviderTimeout,
  ProviderUnavailable,
  ReturnUrlRequired
} from "./payments/PaymentErrors.js"
export { ConnectionInvalid, ConnectionNameTaken, DefaultProviderInUse, ProviderConnectionNotFound } from "./providers/ProviderConnectionErrors.js"
export { NoProviderAvailable, ProviderNotUsable } from "./providers/ProviderResolution.js"
export { ProviderWebhookRejected } from "./providers/ProviderWebhooks.js"
export { ProviderWebhookThrottled } from "./providers/WebhookIntake.js"
export { RefundNotFound, RefundRefused } from "./refunds/RefundErrors.js"
export { RoutingRuleInvalid, RoutingRuleNotFound } from "./routing/RoutingErrors.js"
export {
  BillingRequestInvalid,
  CustomerNotFound,
  InvoiceNotFound,
  PlanNotFound,
  ReferenceNotFound,
  SubscriptionDeclined,
  SubscriptionFinal,
  SubscriptionNotFound,
  TestClockBusy,
  TestClockNotFound
} from "./subscriptions/SubscriptionErrors.js"
export { AuthenticationFailed } from "./tenancy/Authentication.js"
export { OrganizationNameInvalid, OrganizationNameTaken } from "./tenancy/OrganizationName.js"
export { ApiKeyNotFound, DefaultProviderInvalid, InvalidApiKey, OrganizationNotFound } from "./tenancy/Organizations.js"
export { WebhookDeliveryNotFound, WebhookEndpointNotFound, WebhookUrlNotAllowed } from "./webhooks/WebhookErrors.js"

// Events: what happened, as merchants receive it
export {
  API_VERSION,
  CheckoutSessionEvent,
  Event,
  EVENT_TYPES,
  type EventInput,
  type EventType,
  InvoiceEvent,
  PaymentEvent,
  ProviderConnectionEvent,
  ProviderConnectionEventTypes,
  RefundEvent,
  SubscriptionEvent
} from "./events/Event.js"
export { EventLog } from "./events/EventLog.js"
export { EVENT_RETENTION, Events } from "./events/Events.js"
export { type CausingRequest, causingRequestHere, CurrentCausingRequest } from "./observability/CausingRequest.js"

// Records and values: the resources, requests and domain values the services speak in
export {
  CheckoutSession,
  CheckoutSessionPublic,
  CheckoutSessionRecord,
  CheckoutSessionStatus,
  ConfirmCheckout,
  CreateCheckoutSession,
  RerouteCheckout
} from "./checkout/CheckoutSession.js"
export { type ClientSecretHolder } from "./checkout/CheckoutSessions.js"
export { Currency, CurrencyCode, exponentOf, isCurrency } from "./domain/Currency.js"
export { DecimalInteger } from "./domain/DecimalInteger.js"
export { ECHO_LIMIT, echoed } from "./domain/EchoedText.js"
export { type EncodedOnce, encodedOnceOf, encodedOnceOfValue } from "./domain/EncodedOnce.js"
export { field, optionalField } from "./domain/Field.js"
export { type IdPrefix, makeId, randomBase32 } from "./domain/Ids.js"
export { fromDecimalString, toDecimalString } from "./domain/Money.js"
export { ListOf, type Page, PageQuery, type PageRequest, pageRequestOf, toList } from "./domain/Pagination.js"
export { CurrentTenant, type Tenant } from "./domain/Tenant.js"
export { Identifier, isHttpUrl, PathId, Text } from "./domain/Text.js"
export { TimeFilter } from "./domain/Timestamp.js"
export { decodeUrlPart, findUnstorable, isStorable, placeName } from "./domain/UnstorableText.js"
export { canonicalJson, fingerprint, IdempotencyKey, type IdempotencyRecord, type KeptAnswer, type StoredAnswer } from "./idempotency/IdempotencyKey.js"
export {
  type AnswerSpec,
  type Completed,
  heldBy,
  type KeyedAnswer,
  type KeyedRequest,
  type KeyRun,
  noKey,
  type Replay,
  type RidingCompletion,
  type Running,
  type RunOptions
} from "./idempotency/KeyRun.js"
export { FAILED_ATTEMPT_STATUSES, SUCCEEDED_ATTEMPT_STATUSES } from "./insights/AttemptTallies.js"
export { Insights, PaymentTimeline, ProviderStats } from "./insights/Insights.js"
export { DEFAULT_INSIGHT_HOURS, MAX_INSIGHT_HOURS } from "./insights/InsightsReader.js"
export { FailedAuthenticationLimit } from "./limits/FailedAuthentications.js"
export { RateLimitDefaults } from "./limits/RateLimits.js"
export { RESOURCE_LIMITS } from "./limits/ResourceLimits.js"
export {
  AttemptStatus,
  awaitsOutcome,
  CancelPayment,
  CapturePayment,
  CardMethodInput,
  CardToken,
  CreatePayment,
  Failure,
  isCardNumber,
  NextAction,
  Payment,
  PaymentAttempt,
  PaymentEncoding,
  PaymentListFilter,
  PaymentMethod,
  PaymentMethodInput,
  PaymentRouting,
  PaymentStatus,
  RedirectMethodInput
} from "./payments/Payment.js"
export { type PaymentContext } from "./payments/Payments.js"
export { PaymentEventTypes } from "./payments/PaymentStateMachine.js"
export { RETURN_SYNC_INTERVAL } from "./payments/ReturnSyncThrottle.js"
export { RETURN_TOKEN_LIFETIME_SECONDS, RETURN_TOKEN_PARAM, signReturnToken } from "./payments/ReturnToken.js"
export { failureMessage } from "./providers/FailureMessages.js"
export {
  CreateProviderConnection,
  freshConnection,
  ProviderConnection,
  ProviderConnectionView,
  UpdateProviderConnection
} from "./providers/ProviderConnection.js"
export { STARTER_CONNECTIONS } from "./providers/ProviderConnections.js"
export { UNMATCHED_AFTER } from "./providers/ProviderWebhooks.js"
export { CreateRefund, Refund, RefundStatus } from "./refunds/Refund.js"
export { RoutingDecision } from "./routing/RoutingEvaluation.js"
export { CreateRoutingRule, RoutingRule, UpdateRoutingRule } from "./routing/RoutingRule.js"
export { EvaluateRouting, type KnownState } from "./routing/RoutingRules.js"
export { addIntervals, periodBoundary } from "./subscriptions/BillingPeriod.js"
export { atTime } from "./subscriptions/BillingTime.js"
export { CreateCustomer, Customer } from "./subscriptions/Customer.js"
export { Invoice, InvoiceRecord } from "./subscriptions/Invoice.js"
export { CreatePlan, Plan } from "./subscriptions/Plan.js"
export {
  CancelSubscription,
  CreateSubscription,
  Subscription,
  SubscriptionRecord,
  SubscriptionStatus,
  subscriptionView,
  UpdateSubscription
} from "./subscriptions/Subscription.js"
export { AdvanceTestClock, CreateTestClock, TestClock } from "./subscriptions/TestClock.js"
export { ApiKey, parseSecretKey } from "./tenancy/ApiKey.js"
export { type AuthenticatedKey } from "./tenancy/Authentication.js"
export { Organization, OrganizationView, PaymentsRouting, UpdateOrganization } from "./tenancy/Organization.js"
export { DeliveryStatus, ResendDeliveries, ResendResult, WebhookAttempt, WebhookDelivery } from "./webhooks/WebhookDelivery.js"
export { CreateWebhookEndpoint, UpdateWebhookEndpoint, WebhookEndpoint } from "./webhooks/WebhookEndpoint.js"
export { ROTATION_OVERLAP } from "./webhooks/WebhookEndpoints.js"
export { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signatureHeader, verifySignature } from "./webhooks/WebhookSignature.js"

// Observability
export {
  countNow,
  countWith,
  httpRequestDuration,
  httpRequestsTotal,
  idempotencyTotal,
  observeNow,
  providerConnections,
  webhookOldestPendingAge,
  webhookPendingDeliveries
} from "./observability/ServiceMetrics.js"

// The egress policy every outbound call goes through
export { EXPIRY_SHARE } from "./checkout/CheckoutSessionsRepository.js"
export { timeOfId } from "./domain/Ids.js"
export { type ListOrder } from "./domain/Pagination.js"
export {
  addressAllowed,
  type EgressAccess,
  EgressSettings,
  egressUrlProblem,
  hostMatches,
  ownOriginAccess,
  type PrivateAddresses,
  pspAccess,
  webhookAccess
} from "./egress/EgressPolicy.js"
export { fairPick, type FairRow } from "./memory/MemoryFairClaims.js"
export { providerWebhooksThrottledTotal } from "./observability/ServiceMetrics.js"
export { type FairShare, type LaneKey, MAX_LANES_PER_CLAIM } from "./ports/LeasedWork.js"
export { connectionTypesNamed } from "./providers/ConnectionTypes.js"
export { type WebhookClaim } from "./providers/PaymentConnector.js"
export { APPLY_SHARE } from "./providers/ProviderEventsRepository.js"
export { isPspId } from "./providers/PspIds.js"
export { WebhookIntakeLimit } from "./providers/WebhookIntake.js"
export { BILLING_SHARE } from "./subscriptions/SubscriptionsRepository.js"
export { deliveryShare, HEALTHY, WebhookDeliveryPolicy } from "./webhooks/EndpointHealth.js"
