import { Effect, Layer } from "effect"
import type { CorePorts, StoragePorts } from "./CorePorts.js"
import { StorageMemory } from "./memory/StorageMemory.js"
import { RateLimiter } from "./limits/RateLimiter.js"
import { Connectors } from "./providers/Connectors.js"
import { CheckoutRecords } from "./checkout/CheckoutRecords.js"
import { CheckoutSessions } from "./checkout/CheckoutSessions.js"
import { EventConsumers, EventDispatch } from "./events/EventDispatch.js"
import { EventLog } from "./events/EventLog.js"
import { Events } from "./events/Events.js"
import { InsightsReader } from "./insights/InsightsReader.js"
import { IdempotentRequests } from "./idempotency/IdempotentRequests.js"
import { PaymentAttempts } from "./payments/PaymentAttempts.js"
import { PaymentRecords } from "./payments/PaymentRecords.js"
import { PaymentRecovery } from "./payments/PaymentRecovery.js"
import { Payments } from "./payments/Payments.js"
import { IdGenerator } from "./ports/IdGenerator.js"
import { ExtraJobs, Jobs } from "./ports/Jobs.js"
import { ConnectionHealth } from "./providers/ConnectionHealth.js"
import { ConnectionSecrets } from "./providers/ConnectionSecrets.js"
import { ProviderConnections } from "./providers/ProviderConnections.js"
import { ProviderConnectionViews } from "./providers/ProviderConnectionViews.js"
import { ProviderResolution } from "./providers/ProviderResolution.js"
import { ProviderWebhooks } from "./providers/ProviderWebhooks.js"
import { RefundRecords } from "./refunds/RefundRecords.js"
import { Refunds } from "./refunds/Refunds.js"
import { RoutingRules } from "./routing/RoutingRules.js"
import { BillingRecords } from "./subscriptions/BillingRecords.js"
import { Customers } from "./subscriptions/Customers.js"
import { Invoices } from "./subscriptions/Invoices.js"
import { NativeBilling } from "./subscriptions/NativeBilling.js"
import { Plans } from "./subscriptions/Plans.js"
import { Subscriptions } from "./subscriptions/Subscriptions.js"
import { TestClocks } from "./subscriptions/TestClocks.js"
import { RateLimits } from "./limits/RateLimits.js"
import { FailedAuthentications } from "./limits/FailedAuthentications.js"
import { Authentication } from "./tenancy/Authentication.js"
import { Organizations } from "./tenancy/Organizations.js"
import { WebhookDeliveries } from "./webhooks/WebhookDeliveries.js"
import { WebhookEndpoints } from "./webhooks/WebhookEndpoints.js"

/** Every background job: those the capabilities declare, and those the adapters add. */
const JobsLayer = Layer.effect(
  Jobs,
  Effect.gen(function*() {
    const services = yield* Effect.all([
      PaymentRecovery,
      Refunds,
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
)

/** Who receives every event from the outbox: the webhook fan-out, billing (payments of invoices), and checkout following its payments. */
const ConsumersLayer = Layer.effect(
  EventConsumers,
  Effect.map(
    Effect.all([WebhookDeliveries, Subscriptions, CheckoutSessions]),
    ([webhooks, subscriptions, checkout]) => [webhooks.fanOut, subscriptions.consumer, checkout.consumer]
  )
)

/** The application services of the core, built in the order they need each other. */
const Services = JobsLayer.pipe(
  Layer.provideMerge(EventDispatch.layer),
  Layer.provideMerge(ConsumersLayer),
  Layer.provideMerge(
    Layer.mergeAll(
      IdempotentRequests.layer,
      Authentication.layer,
      Organizations.layer,
      Events.layer,
      RateLimits.layer,
      FailedAuthentications.layer,
      InsightsReader.layer
    )
  ),
  Layer.provideMerge(CheckoutSessions.layer),
  Layer.provideMerge(WebhookDeliveries.layer),
  Layer.provideMerge(Layer.mergeAll(TestClocks.layer, Invoices.layer)),
  Layer.provideMerge(Subscriptions.layer),
  Layer.provideMerge(Layer.mergeAll(Customers.layer, Plans.layer)),
  Layer.provideMerge(WebhookEndpoints.layer),
  Layer.provideMerge(ProviderWebhooks.layer),
  // Below the PSP webhooks, which hand it the news of native subscriptions.
  Layer.provideMerge(NativeBilling.layer),
  Layer.provideMerge(BillingRecords.layer),
  Layer.provideMerge(Refunds.layer),
  Layer.provideMerge(Layer.mergeAll(Payments.layer, PaymentRecovery.layer)),
  Layer.provideMerge(PaymentAttempts.layer),
  Layer.provideMerge(Layer.mergeAll(PaymentRecords.layer, RefundRecords.layer, CheckoutRecords.layer)),
  Layer.provideMerge(Layer.mergeAll(ProviderResolution.layer, ProviderConnections.layer)),
  Layer.provideMerge(Layer.mergeAll(ConnectionHealth.layer, RoutingRules.layer)),
  Layer.provideMerge(Layer.mergeAll(EventLog.layer, ProviderConnectionViews.layer)),
  Layer.provideMerge(IdGenerator.layer)
).pipe(
  // The registry over the host's catalog; connectors open their connection's secrets themselves.
  Layer.provideMerge(Connectors.layer),
  Layer.provideMerge(ConnectionSecrets.layer)
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
> = CoreLive.pipe(Layer.provideMerge(Layer.merge(StorageMemory, RateLimiter.layerLocal)))
