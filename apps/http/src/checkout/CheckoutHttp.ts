import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, CheckoutCaller, CheckoutSessionApi, CheckoutSessionsApi } from "@orchestrator/api"
import { CheckoutSessionNotFound, CheckoutSessions, CurrentTenant, pageRequestOf, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const CheckoutSessionsHttpLive = HttpApiBuilder.group(Api, "checkoutSessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* CheckoutSessions
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          // The answer holds the client secret: kept sealed for replays.
          underKey(
            CheckoutSessionsApi.endpoints.create,
            { key: headers["idempotency-key"], payload },
            { sealed: true },
            (run) => sessions.create(tenant, payload, run)
          )))
      .handle("list", ({ urlParams: { limit, starting_after, ...filter } }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          sessions.list(tenant, filter, pageRequestOf({ limit, starting_after })).pipe(
            Effect.map(toList),
            answering
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
            underKey(endpoints.confirm, { key: headers["idempotency-key"], path, payload }, {}, () => sessions.confirm(tenant, path.id, payload)).pipe(
              Effect.provideService(CurrentTenant, tenant)
            )
          )),
        // A customer closing the tab must not stop a payment half way.
        { uninterruptible: true }
      )
      .handle("cancel", ({ headers, path }) =>
        answering(callerFor(path.id)).pipe(Effect.flatMap(({ tenant }) =>
          underKey(endpoints.cancel, { key: headers["idempotency-key"], path, payload: undefined }, {}, () =>
            sessions.cancel(tenant, path.id)).pipe(Effect.provideService(CurrentTenant, tenant))
        )))
      .handle("reroute", ({ headers, path, payload }) =>
        answering(callerFor(path.id)).pipe(Effect.flatMap(({ tenant }) =>
          underKey(endpoints.reroute, { key: headers["idempotency-key"], path, payload }, {}, () =>
            sessions.reroute(tenant, path.id, payload ?? {})).pipe(Effect.provideService(CurrentTenant, tenant))
        )))
  }))
