import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { CheckoutSessionApi, CheckoutSessionsApi } from "@orchestrator/api/checkout/CheckoutApi"
import { CheckoutCaller } from "@orchestrator/api/checkout/CheckoutAuthorization"
import { checkoutFailures } from "@orchestrator/api/checkout/CheckoutErrors"
import { listFailures } from "@orchestrator/api/CommonErrors"
import { paymentFailures } from "@orchestrator/api/payments/PaymentErrors"
import { providerFailures } from "@orchestrator/api/providers/ProviderErrors"
import { CheckoutSessionNotFound } from "@orchestrator/core/checkout/CheckoutErrors"
import { CheckoutSessions } from "@orchestrator/core/checkout/CheckoutSessions"
import { pageRequestOf, toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Effect } from "effect"
import { idempotent } from "../IdempotentEndpoint.js"

export const CheckoutSessionsHttpLive = HttpApiBuilder.group(Api, "checkoutSessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* CheckoutSessions
    const answering = answeringWith({
      ...checkoutFailures,
      ...providerFailures,
      PaymentCustomerNotFound: paymentFailures.PaymentCustomerNotFound
    })
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          idempotent(
            CheckoutSessionsApi.endpoints.create,
            // The answer holds the client secret: replays are kept sealed.
            { key: headers["idempotency-key"], payload, sealResponse: true },
            answering(sessions.create(tenant, payload))
          )))
      .handle("list", ({ urlParams: { limit, starting_after, ...filter } }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          sessions.list(tenant, filter, pageRequestOf({ limit, starting_after })).pipe(
            Effect.map(toList),
            answeringWith(listFailures)
          )))
  }))

const endpoints = CheckoutSessionApi.endpoints

/**
 * The caller's tenant for the session at `id`: a client secret opens only its own session, and
 * any other id is answered 404 as if it did not exist.
 */
const callerFor = (id: string) =>
  Effect.flatMap(CheckoutCaller, ({ clientSessionId, tenant }) =>
    clientSessionId !== null && clientSessionId !== id
      ? Effect.fail(new CheckoutSessionNotFound({ id }))
      : Effect.succeed({ tenant, client: clientSessionId !== null }))

export const CheckoutSessionHttpLive = HttpApiBuilder.group(Api, "checkoutSession", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* CheckoutSessions
    const answering = answeringWith({ ...checkoutFailures, ...providerFailures })
    return handlers
      .handle("retrieve", ({ path, urlParams }) =>
        answering(Effect.flatMap(callerFor(path.id), ({ client, tenant }) =>
          client
            ? sessions.retrievePublic(tenant, path.id)
            : sessions.retrieve(tenant, path.id, { expandPayment: urlParams.expand === "payment" }))))
      .handle(
        "confirm",
        ({ headers, path, payload }) =>
          answering(callerFor(path.id)).pipe(Effect.flatMap(({ tenant }) =>
            idempotent(
              endpoints.confirm,
              { key: headers["idempotency-key"], path, payload },
              answering(sessions.confirm(tenant, path.id, payload))
            ).pipe(Effect.provideService(CurrentTenant, tenant))
          )),
        // A customer closing the tab must not stop a payment half way.
        { uninterruptible: true }
      )
      .handle("cancel", ({ headers, path }) =>
        answering(callerFor(path.id)).pipe(Effect.flatMap(({ tenant }) =>
          idempotent(
            endpoints.cancel,
            { key: headers["idempotency-key"], path, payload: undefined },
            answering(sessions.cancel(tenant, path.id))
          ).pipe(Effect.provideService(CurrentTenant, tenant))
        )))
      .handle("reroute", ({ headers, path, payload }) =>
        answering(callerFor(path.id)).pipe(Effect.flatMap(({ tenant }) =>
          idempotent(
            endpoints.reroute,
            { key: headers["idempotency-key"], path, payload },
            answering(sessions.reroute(tenant, path.id, payload ?? {}))
          ).pipe(Effect.provideService(CurrentTenant, tenant))
        )))
  }))
