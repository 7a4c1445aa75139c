/**
 * The front door of the core, and its only door: every other package and app imports the core from
 * here. Read it as a host does: what to compose, the ports to provide (an adapter package implements
 * them), the services to call, the errors they fail with, the events they emit, and the records and
 * values they speak in.
 */

// Composition: what a host puts together
export { CoreLive, CoreMemory, type CoreServices } from "./composition/CoreLive.js"
export { type CorePorts, type StoragePorts } from "./composition/CorePorts.js"
export { RepositoriesWithRecentReads } from "./composition/RecentReads.js"
export { StorageMemory } from "./composition/StorageMemory.js"
export { BackgroundJobs, tracedPass } from "./features/jobs/BackgroundJobs.js"
export { makeMemoryRateLimiter, MemoryRateLimiter } from "./memory/MemoryRateLimiter.js"

// Ports: what a host (or an adapter package) provides
export { type Leased, type LeaseRequest } from "./domain/LeasedWork.js"
export {
  AuthorizationOutcome,
  CaptureOutcome,
  type CardDetails,
  type ConnectorError,
  ConnectorOutcomeUnknown,
  ConnectorUnavailable,
  DisputeActionOutcome,
  ModificationOutcome,
  type NativeInvoice,
  type NativeSubscriptionReport,
  type NativeSubscriptionStatus,
  ProviderEvent,
  RefundOutcome,
  WebhookRejected
} from "./domain/providers/ConnectorOutcomes.js"
export { StoredProviderEvent } from "./domain/providers/ProviderEvent.js"
export { ConnectorCatalog, Connectors, UnknownConnectorType } from "./features/connections/Connectors.js"
export { ApiKeysRepository } from "./ports/ApiKeysRepository.js"
export { type CheckoutSessionRef, CheckoutSessionsRepository } from "./ports/CheckoutSessionsRepository.js"
export { CustomersRepository } from "./ports/CustomersRepository.js"
export { EventsRepository, type StoredEvent } from "./ports/EventsRepository.js"
export { IdempotencyKeysRepository, type KeyCompletion } from "./ports/IdempotencyKeysRepository.js"
export { InsightsRepository, TIMELINE_LIMIT } from "./ports/InsightsRepository.js"
export { InvoicesRepository } from "./ports/InvoicesRepository.js"
export { ExtraJobs, type Job, Jobs } from "./ports/Jobs.js"
export { KeyMaterial } from "./ports/KeyMaterial.js"
export { OrganizationsRepository } from "./ports/OrganizationsRepository.js"
export {
  type ActionCompletion,
  type AuthorizeRequest,
  type BrowserDetails,
  type ConnectorContext,
  type ConnectorDefinition,
  type CustomerDetails,
  type DisputeOperations,
  type EvidenceFileContents,
  type IncomingWebhook,
  MissingSecret,
  type NativeSubscriptionRequest,
  type NativeSubscriptions,
  type PaymentConnector,
  type StoredCredential
} from "./ports/PaymentConnector.js"
export { PaymentsRepository, type PaymentWork } from "./ports/PaymentsRepository.js"
export { PlansRepository } from "./ports/PlansRepository.js"
export { ProviderConnectionsRepository } from "./ports/ProviderConnectionsRepository.js"
export { ProviderEventsRepository, type ReceivedEvent } from "./ports/ProviderEventsRepository.js"
export { PublicUrls } from "./ports/PublicUrls.js"
export { type Rate, type RateDecision, RateLimiter } from "./ports/RateLimiter.js"
export { Readiness } from "./ports/Readiness.js"
export { type RecordRepository, type RecordStore } from "./ports/RecordStore.js"
export { type RefundRef, RefundsRepository } from "./ports/RefundsRepository.js"
export { RoutingRulesRepository } from "./ports/RoutingRulesRepository.js"
export { type DueSubscription, SubscriptionsRepository } from "./ports/SubscriptionsRepository.js"
export { type AbandonedAdvance, TestClocksRepository } from "./ports/TestClocksRepository.js"
export { Transactions } from "./ports/Transactions.js"
export { type DueDelivery, WebhookDeliveriesRepository } from "./ports/WebhookDeliveriesRepository.js"
export { WebhookEndpointsRepository } from "./ports/WebhookEndpointsRepository.js"
export { type WebhookRequest, type WebhookResponse, WebhookSender } from "./ports/WebhookSender.js"

// Services: what a host calls
export {
  AnswerDispute,
  Dispute,
  DisputeEvidence,
  DisputeEvidenceFiles,
  DisputeReason,
  DisputeStage,
  DisputeStatus,
  type EvidenceFileField,
  UpdateDisputeEvidence
} from "./domain/disputes/Dispute.js"
export {
  DisputeActionNotSupported,
  DisputeActionRefused,
  DisputeNotEditable,
  DisputeNotFound,
  DisputeProviderUnavailable,
  EvidenceFileNotFound
} from "./domain/disputes/DisputeErrors.js"
export { DisputeFact } from "./domain/disputes/DisputeFact.js"
export { DisputeEventTypes, DisputeStateMachine } from "./domain/disputes/DisputeStateMachine.js"
export { fileNameOf, fileTypeOf } from "./domain/files/FileContent.js"
export { FileInvalid, FileNotFound } from "./domain/files/FileErrors.js"
export { FILE_MEDIA_TYPES, FilePurpose, FileResource, FileType, type FileUpload, MAX_FILE_BYTES } from "./domain/files/FileResource.js"
export { PaymentPolicy } from "./domain/payments/PaymentPolicy.js"
export { CheckoutSessions } from "./features/checkout/CheckoutSessions.js"
export { ConnectionSecrets } from "./features/connections/ConnectionSecrets.js"
export { ProviderConnections } from "./features/connections/ProviderConnections.js"
export { Disputes } from "./features/disputes/Disputes.js"
export { Files } from "./features/files/Files.js"
export { IdempotentRequests, keptAnswerOf, KEY_LOCK, KEY_RETENTION, succeededAnswer } from "./features/idempotency/IdempotentRequests.js"
export { InsightsReader } from "./features/insights/InsightsReader.js"
export { FailedAuthentications } from "./features/limits/FailedAuthentications.js"
export { RateLimits } from "./features/limits/RateLimits.js"
export { Payments } from "./features/payments/Payments.js"
export { ProviderWebhooks } from "./features/provider-webhooks/ProviderWebhooks.js"
export { Refunds } from "./features/refunds/Refunds.js"
export { RoutingRules } from "./features/routing/RoutingRules.js"
export { Customers } from "./features/subscriptions/Customers.js"
export { Invoices } from "./features/subscriptions/Invoices.js"
export { Plans } from "./features/subscriptions/Plans.js"
export { Subscriptions } from "./features/subscriptions/Subscriptions.js"
export { TestClocks } from "./features/subscriptions/TestClocks.js"
export { Authentication } from "./features/tenancy/Authentication.js"
export { Organizations } from "./features/tenancy/Organizations.js"
export { WebhookDeliveries } from "./features/webhooks/WebhookDeliveries.js"
export { WebhookEndpoints } from "./features/webhooks/WebhookEndpoints.js"
export { type DisputeListFilter, type DisputeRef, DisputesRepository } from "./ports/DisputesRepository.js"
export { FileStore, type StoredFile } from "./ports/FileStore.js"

// Errors: every failure the services answer with. Each class declares its kind (what it means to any
// caller), its codes and description once, and says its own message (`answer`); the HTTP API derives
// its error classes from these, the command-line tool its messages.
export { CheckoutMethodNotAllowed, CheckoutSessionNotFound, CheckoutSessionStateConflict, ClientSecretRejected } from "./domain/checkout/CheckoutErrors.js"
export { EgressFailure } from "./domain/egress/EgressFailure.js"
export { EventNotFound } from "./domain/events/EventErrors.js"
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
export { IdempotencyKeyInUse, IdempotencyKeyReused } from "./domain/idempotency/IdempotencyKey.js"
export { TooManyFailedAuthentications } from "./domain/limits/LimitErrors.js"
export { RateLimited } from "./domain/limits/LimitErrors.js"
export { ResourceLimitExceeded } from "./domain/limits/ResourceLimits.js"
export { InvalidCursor } from "./domain/Pagination.js"
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
} from "./domain/payments/PaymentErrors.js"
export { ConnectionInvalid, ConnectionNameTaken, DefaultProviderInUse, ProviderConnectionNotFound } from "./domain/providers/ProviderConnectionErrors.js"
export { ProviderWebhookRejected } from "./domain/providers/ProviderWebhookErrors.js"
export { ProviderWebhookThrottled } from "./domain/providers/ProviderWebhookErrors.js"
export { RefundNotFound, RefundRefused } from "./domain/refunds/RefundErrors.js"
export { NoProviderAvailable, ProviderNotUsable } from "./domain/routing/RoutingErrors.js"
export { RoutingRuleInvalid, RoutingRuleNotFound } from "./domain/routing/RoutingErrors.js"
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
} from "./domain/subscriptions/SubscriptionErrors.js"
export { OrganizationNameInvalid, OrganizationNameTaken } from "./domain/tenancy/OrganizationName.js"
export { AuthenticationFailed } from "./domain/tenancy/TenancyErrors.js"
export { ApiKeyNotFound, DefaultProviderInvalid, InvalidApiKey, OrganizationNotFound } from "./domain/tenancy/TenancyErrors.js"
export { WebhookDeliveryNotFound, WebhookEndpointNotFound, WebhookUrlNotAllowed } from "./domain/webhooks/WebhookErrors.js"

// Events: what happened, as merchants receive it
export { type CausingRequest, causingRequestHere, CurrentCausingRequest } from "./domain/events/CausingRequest.js"
export {
  API_VERSION,
  CheckoutSessionEvent,
  DisputeEvent,
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
} from "./domain/events/Event.js"
export { EventLog } from "./features/events/EventLog.js"
export { EVENT_RETENTION, Events } from "./features/events/Events.js"

// Records and values: the resources, requests and domain values the services speak in
export {
  CheckoutSession,
  CheckoutSessionPublic,
  CheckoutSessionRecord,
  CheckoutSessionStatus,
  ConfirmCheckout,
  CreateCheckoutSession,
  RerouteCheckout,
  sessionIdOfSecret
} from "./domain/checkout/CheckoutSession.js"
export { Currency, CurrencyCode, exponentOf, isCurrency } from "./domain/Currency.js"
export { DecimalInteger } from "./domain/DecimalInteger.js"
export { ECHO_LIMIT, echoed } from "./domain/EchoedText.js"
export { type EncodedOnce, encodedOnceOf, encodedOnceOfValue } from "./domain/EncodedOnce.js"
export { CreateWebhookEndpoint, UpdateWebhookEndpoint } from "./domain/events/WebhookEndpointRequests.js"
export { field, optionalField } from "./domain/Field.js"
export { constantTimeEqual } from "./domain/HmacSha256.js"
export { canonicalJson, fingerprint, IdempotencyKey, type IdempotencyRecord, type KeptAnswer, type StoredAnswer } from "./domain/idempotency/IdempotencyKey.js"
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
} from "./domain/idempotency/KeyRun.js"
export { type IdPrefix, makeId, randomBase32 } from "./domain/Ids.js"
export { FAILED_ATTEMPT_STATUSES, SUCCEEDED_ATTEMPT_STATUSES } from "./domain/insights/AttemptTallies.js"
export { Insights, PaymentTimeline, ProviderStats } from "./domain/insights/Insights.js"
export { RESOURCE_LIMITS } from "./domain/limits/ResourceLimits.js"
export { fromDecimalString, toDecimalString } from "./domain/Money.js"
export { ListOf, type Page, PageQuery, type PageRequest, pageRequestOf, toList } from "./domain/Pagination.js"
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
} from "./domain/payments/Payment.js"
export { PaymentEventTypes } from "./domain/payments/PaymentStateMachine.js"
export { RETURN_TOKEN_LIFETIME_SECONDS, RETURN_TOKEN_PARAM, signReturnToken } from "./domain/payments/ReturnToken.js"
export { failureMessage } from "./domain/providers/FailureMessages.js"
export {
  CreateProviderConnection,
  freshConnection,
  ProviderConnection,
  ProviderConnectionView,
  UpdateProviderConnection
} from "./domain/providers/ProviderConnection.js"
export { CreateRefund, Refund, RefundStatus } from "./domain/refunds/Refund.js"
export { RoutingDecision } from "./domain/routing/RoutingEvaluation.js"
export { CreateRoutingRule, RoutingRule, UpdateRoutingRule } from "./domain/routing/RoutingRule.js"
export { addIntervals, periodBoundary } from "./domain/subscriptions/BillingPeriod.js"
export { CreateCustomer, Customer } from "./domain/subscriptions/Customer.js"
export { Invoice, InvoiceRecord } from "./domain/subscriptions/Invoice.js"
export { CreatePlan, Plan } from "./domain/subscriptions/Plan.js"
export {
  CancelSubscription,
  CreateSubscription,
  Subscription,
  SubscriptionRecord,
  SubscriptionStatus,
  subscriptionView,
  UpdateSubscription
} from "./domain/subscriptions/Subscription.js"
export { AdvanceTestClock, CreateTestClock, TestClock } from "./domain/subscriptions/TestClock.js"
export { ApiKey, ApiKeyKind, hashApiKey, parsePublishableKey, parseSecretKey } from "./domain/tenancy/ApiKey.js"
export { Organization, OrganizationView, PaymentsRouting, UpdateOrganization } from "./domain/tenancy/Organization.js"
export { CurrentTenant, type Tenant } from "./domain/Tenant.js"
export { Identifier, isHttpUrl, PathId, Text } from "./domain/Text.js"
export { TimeFilter } from "./domain/Timestamp.js"
export { decodeUrlPart, findUnstorable, isStorable, placeName } from "./domain/UnstorableText.js"
export { DeliveryStatus, ResendDeliveries, ResendResult, WebhookAttempt, WebhookDelivery } from "./domain/webhooks/WebhookDelivery.js"
export { WebhookEndpoint } from "./domain/webhooks/WebhookEndpointResource.js"
export { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signatureHeader, verifySignature } from "./domain/webhooks/WebhookSignature.js"
export { type ClientSecretHolder } from "./features/checkout/CheckoutSessions.js"
export { STARTER_CONNECTIONS } from "./features/connections/ProviderConnections.js"
export { DEFAULT_INSIGHT_HOURS, MAX_INSIGHT_HOURS } from "./features/insights/InsightsReader.js"
export { FailedAuthenticationLimit } from "./features/limits/FailedAuthentications.js"
export { RateLimitDefaults } from "./features/limits/RateLimits.js"
export { type PaymentContext } from "./features/payments/Payments.js"
export { RETURN_SYNC_INTERVAL } from "./features/payments/ReturnSyncThrottle.js"
export { UNMATCHED_AFTER } from "./features/provider-webhooks/ProviderWebhooks.js"
export { EvaluateRouting, type KnownState } from "./features/routing/RoutingRules.js"
export { atTime } from "./features/subscriptions/BillingTime.js"
export { type AuthenticatedKey } from "./features/tenancy/Authentication.js"
export { ROTATION_OVERLAP } from "./features/webhooks/WebhookEndpoints.js"

// Observability
export {
  countNow,
  countWith,
  disputesNearestDue,
  disputesOpen,
  httpRequestDuration,
  httpRequestsTotal,
  idempotencyTotal,
  observeNow,
  providerConnections,
  webhookOldestPendingAge,
  webhookPendingDeliveries
} from "./features/observability/ServiceMetrics.js"

// The egress policy every outbound call goes through
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
} from "./domain/egress/EgressPolicy.js"
export { timeOfId } from "./domain/Ids.js"
export { type FairShare, type LaneKey, MAX_LANES_PER_CLAIM } from "./domain/LeasedWork.js"
export { type ListOrder } from "./domain/Pagination.js"
export { connectionTypesNamed } from "./domain/providers/ConnectionTypes.js"
export { cardDigits, cardProblem, luhnValid, scrubCardNumbers } from "./domain/vault/CardChecks.js"
export { CreatePaymentMethod, DeletedPaymentMethod, PaymentMethodResource, VaultedCardFacts } from "./domain/vault/PaymentMethod.js"
export { PaymentMethodAccess, PaymentMethodAccessList } from "./domain/vault/PaymentMethodAccess.js"
export { CardInvalid, PaymentMethodModeMismatch, PaymentMethodNotFound, RawCardDataDisabled } from "./domain/vault/VaultErrors.js"
export { deliveryShare, HEALTHY, WebhookDeliveryPolicy } from "./domain/webhooks/EndpointHealth.js"
export { isPspId } from "./features/connections/PspIds.js"
export { providerWebhooksThrottledTotal } from "./features/observability/ServiceMetrics.js"
export { annotateSpan, traced } from "./features/observability/Traced.js"
export { WebhookIntakeLimit } from "./features/provider-webhooks/WebhookIntake.js"
export { fairPick, type FairRow } from "./memory/MemoryFairClaims.js"
export {
  type CardAccess,
  type CardChannel,
  type CardOrigin,
  type CardRead,
  CardReadAlong,
  type CardUse,
  CardVault,
  isVaultToken,
  previousSchemeTransaction,
  type RawCard,
  type VaultCardAccess
} from "./ports/CardVault.js"
export { EXPIRY_SHARE } from "./ports/CheckoutSessionsRepository.js"
export { IdGenerator } from "./ports/IdGenerator.js"
export { type WebhookClaim } from "./ports/PaymentConnector.js"
export { APPLY_SHARE } from "./ports/ProviderEventsRepository.js"
export { BILLING_SHARE } from "./ports/SubscriptionsRepository.js"
