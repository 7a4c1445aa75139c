import { Schema } from "effect"
import { CheckoutSessionEventObject } from "../checkout/CheckoutSession.js"
import { CheckoutSessionEventTypes } from "../checkout/CheckoutSessionStateMachine.js"
import { Dispute } from "../disputes/Dispute.js"
import { DisputeEventTypes } from "../disputes/DisputeStateMachine.js"
import { field } from "../Field.js"
import { Payment } from "../payments/Payment.js"
import { PaymentEventTypes } from "../payments/PaymentStateMachine.js"
import { ProviderConnectionView } from "../providers/ProviderConnection.js"
import { Refund } from "../refunds/Refund.js"
import { RefundEventTypes } from "../refunds/RefundStateMachine.js"
import { Invoice } from "../subscriptions/Invoice.js"
import { InvoiceEventTypes } from "../subscriptions/InvoiceStateMachine.js"
import { Subscription } from "../subscriptions/Subscription.js"
import { SubscriptionEventTypes } from "../subscriptions/SubscriptionStateMachine.js"
import { Timestamp } from "../Timestamp.js"
import { WebhookEndpoint } from "../webhooks/WebhookEndpointResource.js"

/** `api_version` of every event and response; dates name versions. */
export const API_VERSION = "2026-11-01"

/** The envelope of every event: the affected resource as the API showed it at that moment. */
const envelope = <const Types extends readonly [string, ...Array<string>], A, I>(
  types: Types,
  object: Schema.Schema<A, I>
) =>
  Schema.Struct({
    object: field(Schema.Literal("event"), "Always `event`."),
    id: field(Schema.String, "The event's id (`evt_…`), also sent as the `Service-Event-Id` header: deduplicate on it."),
    // On the schema, not the property, so the catalogue can read each envelope's types from it.
    type: Schema.Literal(...types).annotations({ description: "What happened: the event type (see the catalogue under Webhooks)." }),
    api_version: field(Schema.String, "The API version the payload is written in, a date (e.g. `2026-11-01`)."),
    created_at: field(
      Timestamp,
      "When it happened (ISO 8601 UTC). Events of one object may arrive out of order: compare this, then `id`."
    ),
    livemode: field(Schema.Boolean, "`true` for live data, `false` for test data."),
    data: field(
      Schema.Struct({ object: field(object, "The object the event is about, as the API showed it at that moment.") }),
      "The event's subject."
    )
  })

export const PaymentEvent = envelope(PaymentEventTypes, Payment)
export const RefundEvent = envelope(RefundEventTypes, Refund)
export const DisputeEvent = envelope(DisputeEventTypes, Dispute)

export const SubscriptionEvent = envelope(SubscriptionEventTypes, Subscription)
export const InvoiceEvent = envelope(InvoiceEventTypes, Invoice)

export const ProviderConnectionEventTypes = ["provider_connection.error"] as const
export const ProviderConnectionEvent = envelope(ProviderConnectionEventTypes, ProviderConnectionView)
export const CheckoutSessionEvent = envelope(CheckoutSessionEventTypes, CheckoutSessionEventObject)
export const WebhookEndpointEventTypes = ["webhook_endpoint.disabled"] as const
export const WebhookEndpointEvent = envelope(WebhookEndpointEventTypes, WebhookEndpoint)

/**
 * The catalogue: every event the service emits, typed by what its `data.object` is. A capability
 * that emits events adds its member here; webhooks and billing consume this union.
 */
export const Event = Schema.Union(
  PaymentEvent,
  RefundEvent,
  DisputeEvent,
  ProviderConnectionEvent,
  SubscriptionEvent,
  InvoiceEvent,
  CheckoutSessionEvent,
  WebhookEndpointEvent
).annotations({ identifier: "Event" })
export type Event = typeof Event.Type

export const EVENT_TYPES = [
  ...PaymentEventTypes,
  ...RefundEventTypes,
  ...DisputeEventTypes,
  ...ProviderConnectionEventTypes,
  ...SubscriptionEventTypes,
  ...InvoiceEventTypes,
  ...CheckoutSessionEventTypes,
  ...WebhookEndpointEventTypes
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** What a state change records: its event type and the resource as it now is. */
export type EventInput =
  | { readonly type: (typeof PaymentEventTypes)[number]; readonly object: Payment }
  | { readonly type: (typeof RefundEventTypes)[number]; readonly object: Refund }
  | { readonly type: (typeof DisputeEventTypes)[number]; readonly object: Dispute }
  | { readonly type: (typeof ProviderConnectionEventTypes)[number]; readonly object: ProviderConnectionView }
  | { readonly type: (typeof SubscriptionEventTypes)[number]; readonly object: Subscription }
  | { readonly type: (typeof InvoiceEventTypes)[number]; readonly object: Invoice }
  | { readonly type: (typeof CheckoutSessionEventTypes)[number]; readonly object: CheckoutSessionEventObject }
  | { readonly type: (typeof WebhookEndpointEventTypes)[number]; readonly object: WebhookEndpoint }
