import { Layer } from "effect"
import { CheckoutSessionsRepositorySql } from "./checkout/CheckoutSessionsRepositorySql.js"
import { DisputesRepositorySql } from "./disputes/DisputesRepositorySql.js"
import { EventsRepositorySql } from "./events/EventsRepositorySql.js"
import { FileStoreSql } from "./files/FileStoreSql.js"
import { IdempotencyKeysRepositorySql } from "./idempotency/IdempotencyKeysRepositorySql.js"
import { InsightsRepositorySql } from "./insights/InsightsRepositorySql.js"
import { PaymentsRepositorySql } from "./payments/PaymentsRepositorySql.js"
import { ProviderConnectionsRepositorySql } from "./providers/ProviderConnectionsRepositorySql.js"
import { ProviderEventsRepositorySql } from "./providers/ProviderEventsRepositorySql.js"
import { ReadinessSql } from "./ReadinessSql.js"
import { RefundsRepositorySql } from "./refunds/RefundsRepositorySql.js"
import { RoutingRulesRepositorySql } from "./routing/RoutingRulesRepositorySql.js"
import { CustomersRepositorySql, InvoicesRepositorySql, PlansRepositorySql, TestClocksRepositorySql } from "./subscriptions/BillingRepositoriesSql.js"
import { SubscriptionsRepositorySql } from "./subscriptions/SubscriptionsRepositorySql.js"
import { ApiKeysRepositorySql, OrganizationsRepositorySql } from "./tenancy/TenancyRepositoriesSql.js"
import { TransactionsSql } from "./TransactionsSql.js"
import { WebhookDeliveriesRepositorySql } from "./webhooks/WebhookDeliveriesRepositorySql.js"
import { WebhookEndpointsRepositorySql } from "./webhooks/WebhookEndpointsRepositorySql.js"

/** Every storage port of the core over one `SqlClient`, and the readiness check of that database. */
export const StorageSql = Layer.mergeAll(
  TransactionsSql,
  ReadinessSql,
  OrganizationsRepositorySql,
  ApiKeysRepositorySql,
  ProviderConnectionsRepositorySql,
  PaymentsRepositorySql,
  RefundsRepositorySql,
  DisputesRepositorySql,
  FileStoreSql,
  EventsRepositorySql,
  IdempotencyKeysRepositorySql,
  WebhookEndpointsRepositorySql,
  WebhookDeliveriesRepositorySql,
  RoutingRulesRepositorySql,
  ProviderEventsRepositorySql,
  CustomersRepositorySql,
  PlansRepositorySql,
  TestClocksRepositorySql,
  SubscriptionsRepositorySql,
  InvoicesRepositorySql,
  InsightsRepositorySql,
  CheckoutSessionsRepositorySql
)
