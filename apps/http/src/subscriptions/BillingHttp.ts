import { HttpApiBuilder } from "@effect/platform"
import { answering, Api, CustomersApi, PlansApi, SubscriptionsApi, TestClocksApi } from "@orchestrator/api"
import { CurrentTenant, Customers, Invoices, pageRequestOf, Plans, Subscriptions, TestClocks, toList } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const CustomersHttpLive = HttpApiBuilder.group(Api, "customers", (handlers) =>
  Effect.map(Customers, (customers) =>
    handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(CustomersApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, () => customers.create(tenant, payload))))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => answering(customers.retrieve(tenant, path.id))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(
          CurrentTenant,
          (tenant) => customers.list(tenant, { email: urlParams.email }, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering)
        ))))

export const PlansHttpLive = HttpApiBuilder.group(Api, "plans", (handlers) =>
  Effect.map(Plans, (plans) =>
    handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(
          CurrentTenant,
          (tenant) => underKey(PlansApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, () => plans.create(tenant, payload))
        ))
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(plans.retrieve(tenant, path.id))))
      .handle(
        "list",
        ({ urlParams }) => Effect.flatMap(CurrentTenant, (tenant) => plans.list(tenant, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering))
      )))

export const SubscriptionsHttpLive = HttpApiBuilder.group(Api, "subscriptions", (handlers) =>
  Effect.map(Subscriptions, (subscriptions) =>
    handlers
      .handle(
        "create",
        ({ headers, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(SubscriptionsApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, (run) => subscriptions.create(tenant, payload, run))),
        { uninterruptible: true }
      )
      .handle("update", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(SubscriptionsApi.endpoints.update, { key: headers["idempotency-key"], path, payload }, {}, () =>
            subscriptions.update(tenant, path.id, payload))))
      .handle("cancel", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(SubscriptionsApi.endpoints.cancel, { key: headers["idempotency-key"], path, payload }, {}, () =>
            subscriptions.cancel(tenant, path.id, payload))))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(subscriptions.retrieve(tenant, path.id))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          subscriptions.list(
            tenant,
            { status: urlParams.status, customer: urlParams.customer, plan: urlParams.plan, test_clock: urlParams.test_clock },
            pageRequestOf(urlParams)
          ).pipe(Effect.map(toList), answering)))))

export const InvoicesHttpLive = HttpApiBuilder.group(Api, "invoices", (handlers) =>
  Effect.map(Invoices, (invoices) =>
    handlers
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(invoices.retrieve(tenant, path.id))))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          invoices.list(tenant, { subscription: urlParams.subscription, test_clock: urlParams.test_clock }, pageRequestOf(urlParams)).pipe(
            Effect.map(toList),
            answering
          )))))

export const TestClocksHttpLive = HttpApiBuilder.group(Api, "testClocks", (handlers) =>
  Effect.map(TestClocks, (clocks) =>
    handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(TestClocksApi.endpoints.create, { key: headers["idempotency-key"], payload }, {}, () => clocks.create(tenant, payload))))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => answering(clocks.retrieve(tenant, path.id))))
      .handle(
        "list",
        ({ urlParams }) => Effect.flatMap(CurrentTenant, (tenant) => clocks.list(tenant, pageRequestOf(urlParams)).pipe(Effect.map(toList), answering))
      )
      .handle("delete", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(clocks.remove(tenant, path.id))))
      .handle(
        "advance",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            underKey(TestClocksApi.endpoints.advance, { key: headers["idempotency-key"], path, payload }, {}, () =>
              clocks.advance(tenant, path.id, payload))),
        { uninterruptible: true }
      )))
