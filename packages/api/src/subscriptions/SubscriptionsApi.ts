import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  BillingRequestInvalid,
  CancelSubscription,
  CreateSubscription,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  InvalidCursor,
  ListOf,
  NoProviderAvailable,
  optionalField,
  ProviderNotUsable,
  ReferenceNotFound,
  Subscription,
  SubscriptionDeclined,
  SubscriptionFinal,
  SubscriptionNotFound,
  SubscriptionStatus,
  UpdateSubscription
} from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../Headers.js"

export const SubscriptionList = ListOf(Subscription).annotations({ identifier: "SubscriptionList" })

export class SubscriptionsApi extends HttpApiGroup.make("subscriptions")
  .add(
    HttpApiEndpoint.post("create", "/subscriptions")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreateSubscription)
      .addSuccess(Subscription, { status: 201 })
      .addError(apiErrorOf(SubscriptionDeclined))
      .addError(apiErrorOf(ReferenceNotFound))
      .addError(apiErrorOf(BillingRequestInvalid))
      .addError(apiErrorOf(ProviderNotUsable))
      .addError(apiErrorOf(NoProviderAvailable))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Create a subscription and charge its first period (unless it starts with a trial)")
      .annotate(
        OpenApi.Description,
        "Subscribes a customer to a plan with a payment method token, on the provider named in `provider` or " +
          "chosen by routing. The PSP runs the schedule when its connector can (`engine: native`), else this " +
          "service does (`engine: orchestrator`, with dunning retries). Without a trial the first period is charged " +
          "at once: a decline answers 402 with the `incomplete` subscription inside the error. `Idempotency-Key` is " +
          "required. " +
          "A first charge that needs 3D Secure answers 201 with the subscription `incomplete` and the action in " +
          "`latest_invoice.payment.next_action`; it turns `active` once the customer completes it. The customer " +
          "comes back to `return_url` when given, else to a page of this service that says the window can be closed."
      )
  )
  .add(
    HttpApiEndpoint.post("update", "/subscriptions/:id")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateSubscription)
      .addSuccess(Subscription)
      .addError(apiErrorOf(SubscriptionNotFound))
      .addError(apiErrorOf(SubscriptionFinal))
      .addError(apiErrorOf(ReferenceNotFound))
      .addError(apiErrorOf(BillingRequestInvalid))
      .addError(apiErrorOf(ProviderNotUsable))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Update a subscription; a new plan applies from the next period")
      .annotate(
        OpenApi.Description,
        "Changes only the fields sent: a new `plan` is recorded in `pending_update` and applies when the next " +
          "period starts; `cancel_at_period_end` schedules or unschedules the end; `metadata` replaces the old. A " +
          "canceled or expired subscription answers 409."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/subscriptions/:id/cancel")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CancelSubscription)
      .addSuccess(Subscription)
      .addError(apiErrorOf(SubscriptionNotFound))
      .addError(apiErrorOf(SubscriptionFinal))
      .addError(apiErrorOf(ProviderNotUsable))
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(IdempotencyKeyReused))
      .annotate(OpenApi.Summary, "Cancel a subscription now, or at the end of its period")
      .annotate(
        OpenApi.Description,
        "Without a body, or with `at_period_end: false`, cancels at once (`subscription.canceled`); with " +
          "`at_period_end: true`, the subscription runs to the end of its period and then ends " +
          "(`cancel_at_period_end: true` meanwhile)."
      )
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/subscriptions/:id")
      .setPath(ById)
      .addSuccess(Subscription)
      .addError(apiErrorOf(SubscriptionNotFound))
      .annotate(OpenApi.Summary, "Retrieve a subscription with its latest invoice and that invoice's payment")
      .annotate(
        OpenApi.Description,
        "The subscription as it stands, with `latest_invoice` and its payment: look there for a pending " +
          "`next_action` or why the last charge failed."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/subscriptions")
      .setUrlParams(ListQuery({
        status: optionalField(SubscriptionStatus, "Only subscriptions in this status."),
        customer: optionalField(Identifier, "Only the subscriptions of this customer (`cus_…`)."),
        plan: optionalField(Identifier, "Only subscriptions on this plan (`plan_…`)."),
        test_clock: optionalField(Identifier, "Only subscriptions of customers on this test clock (`clock_…`).")
      }))
      .addSuccess(SubscriptionList)
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List subscriptions, newest first")
      .annotate(OpenApi.Description, "The subscriptions of this key's mode, newest first, filtered by status, customer, plan or test clock.")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Subscriptions")
  .annotate(
    OpenApi.Description,
    "A subscription bills a customer a plan's amount every period, through a provider: `incomplete` until the " +
      "first charge succeeds, `trialing`, `active`; `past_due` when a period's charge fails and is being retried, " +
      "`unpaid` when every retry failed, `canceled` at the end. Each period is an invoice. In test mode, put the " +
      "customer on a test clock to run months in seconds. See /docs/guides/subscriptions."
  )
{}
