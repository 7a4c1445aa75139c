import { Effect, Layer } from "effect"
import { CheckoutRecords } from "../features/checkout/CheckoutRecords.js"
import { CheckoutSessions } from "../features/checkout/CheckoutSessions.js"
import { ConnectionHealth } from "../features/connections/ConnectionHealth.js"
import { ConnectionSecrets } from "../features/connections/ConnectionSecrets.js"
import { Connectors } from "../features/connections/Connectors.js"
import { ProviderConnections } from "../features/connections/ProviderConnections.js"
import { ProviderConnectionViews } from "../features/connections/ProviderConnectionViews.js"
import { DisputeRecords } from "../features/disputes/DisputeRecords.js"
import { Disputes } from "../features/disputes/Disputes.js"
import { EventConsumers, EventDispatch } from "../features/events/EventDispatch.js"
import { EventLog } from "../features/events/EventLog.js"
import { Events } from "../features/events/Events.js"
import { Files } from "../features/files/Files.js"
import { IdempotentRequests } from "../features/idempotency/IdempotentRequests.js"
import { InsightsReader } from "../features/insights/InsightsReader.js"
import { FailedAuthentications } from "../features/limits/FailedAuthentications.js"
import { RateLimits } from "../features/limits/RateLimits.js"
import { PaymentCalls } from "../features/payments/PaymentCalls.js"
import { PaymentRecords } from "../features/payments/PaymentRecords.js"
import { PaymentRecovery } from "../features/payments/PaymentRecovery.js"
import { Payments } from "../features/payments/Payments.js"
import { ProviderWebhooks } from "../features/provider-webhooks/ProviderWebhooks.js"
import { RefundRecords } from "../features/refunds/RefundRecords.js"
import { Refunds } from "../features/refunds/Refunds.js"
import { ProviderResolution } from "../features/routing/ProviderResolution.js"
import { RoutingRules } from "../features/routing/RoutingRules.js"
import { BillingRecords } from "../features/subscriptions/BillingRecords.js"
import { Customers } from "../features/subscriptions/Customers.js"
import { Invoices } from "../features/subscriptions/Invoices.js"
import { NativeBilling } from "../features/subscriptions/NativeBilling.js"
import { Plans } from "../features/subscriptions/Plans.js"
import { Subscriptions } from "../features/subscriptions/Subscriptions.js"
import { TestClocks } from "../features/subscriptions/TestClocks.js"
import { Authentication } from "../features/tenancy/Authentication.js"
import { Organizations } from "../features/tenancy/Organizations.js"
import { WebhookDeliveries } from "../features/webhooks/WebhookDeliveries.js"
import { WebhookEndpoints } from "../features/webhooks/WebhookEndpoints.js"
import { MemoryRateLimiter } from "../memory/MemoryRateLimiter.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { ExtraJobs, Jobs } from "../ports/Jobs.js"
import { RateLimiter } from "../ports/RateLimiter.js"
import type { CorePorts, StoragePorts } from "./CorePorts.js"
import { StorageMemory } from "./StorageMemory.js"

/** Who receives every event from the outbox: the webhook fan-out, billing (payments of invoices), and checkout following its payments. */
const ConsumersLayer = Layer.effect(
  EventConsumers,
  Effect.map(
    Effect.all([WebhookDeliveries, Subscriptions, CheckoutSessions]),
    ([webhooks, subscriptions, checkout]) => [webhooks.fanOut, subscriptions.consumer, checkout.consumer]
  )
).pipe(Layer.provide(Layer.mergeAll(WebhookDeliveries.layer, Subscriptions.layer, CheckoutSessions.layer)))

/** The outbox dispatcher, handing events to those consumers (a default of none would lose them silently). */
const DispatchLayer = EventDispatch.layer.pipe(Layer.provide(ConsumersLayer))

/** Every background job: those the capabilities declare, and those the adapters add (`ExtraJobs`). */
const JobsLayer = Layer.effect(
  Jobs,
  Effect.gen(function*() {
    const services = yield* Effect.all([
      PaymentRecovery,
      Refunds,
      Disputes,
      EventDispatch,
      Events,
      WebhookDeliveries,
      IdempotentRequests,
      ProviderWebhooks,
      Subscriptions,
      TestClocks,
      CheckoutSessions
    ])
    return [...services.flatMap((service) => service.jobs), ...(yield* ExtraJobs)]
  })
).pipe(Layer.provide(Layer.mergeAll(
  PaymentRecovery.layer,
  Refunds.layer,
  Disputes.layer,
  DispatchLayer,
  Events.layer,
  WebhookDeliveries.layer,
  IdempotentRequests.layer,
  ProviderWebhooks.layer,
  Subscriptions.layer,
  TestClocks.layer,
  CheckoutSessions.layer
)))

/**
 * The application services of the core. Each service's layer provides the services it needs itself
 * (a layer used in several places is built once), so this is a flat merge of what a host may call;
 * only the ports are left to the host.
 */
const Services = Layer.mergeAll(
  JobsLayer,
  DispatchLayer,
  IdempotentRequests.layer,
  Authentication.layer,
  Organizations.layer,
  Events.layer,
  RateLimits.layer,
  FailedAuthentications.layer,
  InsightsReader.layer,
  CheckoutSessions.layer,
  WebhookDeliveries.layer,
  WebhookEndpoints.layer,
  TestClocks.layer,
  Invoices.layer,
  Subscriptions.layer,
  Customers.layer,
  Plans.layer,
  ProviderWebhooks.layer,
  NativeBilling.layer,
  BillingRecords.layer,
  Refunds.layer,
  RefundRecords.layer,
  Disputes.layer,
  DisputeRecords.layer,
  Files.layer,
  Payments.layer,
  PaymentRecovery.layer,
  PaymentCalls.layer,
  PaymentRecords.layer,
  CheckoutRecords.layer,
  ProviderResolution.layer,
  ProviderConnections.layer,
  ProviderConnectionViews.layer,
  ConnectionHealth.layer,
  ConnectionSecrets.layer,
  Connectors.layer,
  RoutingRules.layer,
  EventLog.layer,
  IdGenerator.layer
)

/** What the core offers a host: its application services, the registry of connectors, and its jobs. */
export type CoreServices = Layer.Layer.Success<typeof Services>

/**
 * The core over the ports a host provides (`CorePorts`): storage, connectors, the webhook sender,
 * key material, the rate limiter and public URLs. The HTTP shell, the worker, the command line, the
 * tests and `examples/embed` all start from it.
 */
export const CoreLive: Layer.Layer<CoreServices, never, CorePorts> = Services

/**
 * The core with everything that can live in memory: records (one store, rolled back together) and
 * request rates. What remains is the host's to say: connectors, webhook sender, keys, public URLs.
 */
export const CoreMemory: Layer.Layer<
  CoreServices | StoragePorts | RateLimiter,
  never,
  Exclude<CorePorts, StoragePorts | RateLimiter>
> = CoreLive.pipe(Layer.provideMerge(Layer.merge(StorageMemory, MemoryRateLimiter)))
