import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "@orchestrator/core/domain/Pagination"
import { Identifier } from "@orchestrator/core/domain/Text"
import { CancelSubscription, CreateSubscription, Subscription, SubscriptionStatus, UpdateSubscription } from "@orchestrator/core/subscriptions/Subscription"
import { Schema } from "effect"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery } from "../Endpoints.js"
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { NoProviderAvailable, ProviderNotUsable } from "../providers/ProviderErrors.js"
import { BillingRequestInvalid, ReferenceNotFound, SubscriptionFinal, SubscriptionNotFound, SubscriptionPaymentFailed } from "./BillingErrors.js"

export const SubscriptionList = ListOf(Subscription).annotations({ identifier: "SubscriptionList" })

export class SubscriptionsApi extends HttpApiGroup.make("subscriptions")
  .add(
    HttpApiEndpoint.post("create", "/subscriptions")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(CreateSubscription)
      .addSuccess(Subscription, { status: 201 })
      .addError(SubscriptionPaymentFailed)
      .addError(ReferenceNotFound)
      .addError(BillingRequestInvalid)
      .addError(ProviderNotUsable)
      .addError(NoProviderAvailable)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Create a subscription and charge its first period (unless it starts with a trial)")
      .annotate(
        OpenApi.Description,
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
      .addError(SubscriptionNotFound)
      .addError(SubscriptionFinal)
      .addError(ReferenceNotFound)
      .addError(BillingRequestInvalid)
      .addError(ProviderNotUsable)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Update a subscription; a new plan applies from the next period")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/subscriptions/:id/cancel")
      .setPath(ById)
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(CancelSubscription)
      .addSuccess(Subscription)
      .addError(SubscriptionNotFound)
      .addError(SubscriptionFinal)
      .addError(ProviderNotUsable)
      .addError(IdempotencyKeyInUse)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Cancel a subscription now, or at the end of its period")
  )
  .add(
    HttpApiEndpoint.get("retrieve", "/subscriptions/:id")
      .setPath(ById)
      .addSuccess(Subscription)
      .addError(SubscriptionNotFound)
      .annotate(OpenApi.Summary, "Retrieve a subscription with its latest invoice and that invoice's payment")
  )
  .add(
    HttpApiEndpoint.get("list", "/subscriptions")
      .setUrlParams(ListQuery({
        status: Schema.optional(SubscriptionStatus),
        customer: Schema.optional(Identifier),
        plan: Schema.optional(Identifier),
        test_clock: Schema.optional(Identifier)
      }))
      .addSuccess(SubscriptionList)
      .annotate(OpenApi.Summary, "List subscriptions, newest first")
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Subscriptions")
{}
