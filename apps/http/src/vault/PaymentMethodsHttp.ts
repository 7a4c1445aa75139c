import { HttpApiBuilder } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CardVault, CurrentTenant, pageRequestOf, toList } from "@orchestrator/core"
import { Effect } from "effect"

/** `/v1/payment_methods`: the vault's cards, by the secret key of the organization and mode that made them. */
export const PaymentMethodsHttpLive = HttpApiBuilder.group(Api, "paymentMethods", (handlers) =>
  Effect.gen(function*() {
    const vault = yield* CardVault
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentTenant, (tenant) => answering(vault.tokenize(tenant, payload))))
      .handle("retrieve", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(vault.retrieve(tenant, path.id))))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentTenant, (tenant) => answering(vault.destroy(tenant, path.id))))
      .handle("accesses", ({ path, urlParams }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          answering(Effect.map(vault.accesses(tenant, path.id, pageRequestOf(urlParams)), toList))))
  }))
