import { Context, Data, Effect, Layer, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { defaultProviderOf } from "../tenancy/Organization.js"
import { OrganizationsRepository } from "../tenancy/OrganizationsRepository.js"
import { type ProviderConnection, supports } from "./ProviderConnection.js"
import { ProviderConnectionsRepository } from "./ProviderConnectionsRepository.js"

/** The `provider` asked for cannot take this payment: unknown, not active, or not for this currency/method. */
export class ProviderNotUsable extends Data.TaggedError("ProviderNotUsable")<{
  readonly provider: string
  readonly reason: string
}> {}

/** No provider was asked for and the organization's default cannot take the payment. */
export class NoProviderAvailable extends Data.TaggedError("NoProviderAvailable")<{ readonly reason: string }> {}

/**
 * Which connection takes a payment: the one the request forces, else the organization's default
 * provider for the mode. Routing rules will slot in before the default.
 */
export class ProviderResolution extends Context.Tag("core/ProviderResolution")<ProviderResolution, {
  readonly forPayment: (
    tenant: Tenant,
    request: { readonly provider: string | undefined; readonly currency: string; readonly method: string }
  ) => Effect.Effect<ProviderConnection, ProviderNotUsable | NoProviderAvailable>
  readonly byName: (tenant: Tenant, name: string) => Effect.Effect<ProviderConnection>
}>() {
  static readonly layer = Layer.effect(
    ProviderResolution,
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const organizations = yield* OrganizationsRepository

      const unusableBecause = (connection: ProviderConnection, currency: string, method: string) =>
        connection.status !== "active"
          ? Option.some(`provider '${connection.name}' is ${connection.status}`)
          : !supports(connection, currency, method)
          ? Option.some(`provider '${connection.name}' does not support ${currency} ${method} payments`)
          : Option.none()

      return {
        forPayment: (tenant, { currency, method, provider }) =>
          Effect.gen(function*() {
            if (provider !== undefined) {
              const connection = yield* connections.findByName(tenant, provider)
              if (Option.isNone(connection)) {
                return yield* new ProviderNotUsable({ provider, reason: `no provider named '${provider}'` })
              }
              const problem = unusableBecause(connection.value, currency, method)
              if (Option.isSome(problem)) return yield* new ProviderNotUsable({ provider, reason: problem.value })
              return connection.value
            }
            const organization = yield* Effect.orDie(organizations.find(tenant.organizationId))
            const name = Option.flatMapNullable(organization, (org) => defaultProviderOf(org, tenant.livemode))
            if (Option.isNone(name)) {
              return yield* new NoProviderAvailable({ reason: "the organization has no default provider in this mode" })
            }
            const connection = yield* connections.findByName(tenant, name.value)
            if (Option.isNone(connection)) {
              return yield* new NoProviderAvailable({ reason: `the default provider '${name.value}' does not exist` })
            }
            const problem = unusableBecause(connection.value, currency, method)
            if (Option.isSome(problem)) return yield* new NoProviderAvailable({ reason: problem.value })
            return connection.value
          }),
        // Payments keep the connection name they were made on; the name is stable for its lifetime.
        byName: (tenant, name) =>
          connections.findByName(tenant, name).pipe(
            Effect.flatMap(Option.match({
              onNone: () => Effect.dieMessage(`connection '${name}' of a stored payment is gone`),
              onSome: Effect.succeed
            }))
          )
      }
    })
  )
}
