import { Context, Effect, Layer, Option } from "effect"
import { echoed } from "../../domain/EchoedText.js"
import type { PaymentRouting } from "../../domain/payments/Payment.js"
import { type ProviderConnection, supports } from "../../domain/providers/ProviderConnection.js"
import { NoProviderAvailable, ProviderNotUsable } from "../../domain/routing/RoutingErrors.js"
import type { Candidate, Evaluation } from "../../domain/routing/RoutingEvaluation.js"
import { methodToTake, type PaymentRoutingFacts, type RoutingFacts } from "../../domain/routing/RoutingRule.js"
import { type Organization, paymentsRoutingOf } from "../../domain/tenancy/Organization.js"
import type { Tenant } from "../../domain/Tenant.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { ConnectionHealth } from "../connections/ConnectionHealth.js"
import { Connectors } from "../connections/Connectors.js"
import { RoutingRules } from "./RoutingRules.js"

export interface Resolved {
  readonly connection: ProviderConnection
  /**
   * Where a routed payment may fail over to, in order: eligible connections of the same type (a PSP's
   * token is that PSP's), or of any type that takes raw cards for a card from the service's vault.
   */
  readonly fallbacks: ReadonlyArray<string>
  readonly routing: PaymentRouting
}

const skipWords: Record<string, string> = {
  rule_disabled: "its rule is disabled",
  no_match: "its rule does not match",
  unknown_provider: "it does not exist",
  excluded: "it was excluded",
  connection_disabled: "it is disabled",
  connection_error: "it is in error (its circuit is open)",
  currency_unsupported: "it does not support this currency",
  method_unsupported: "it does not support this payment method",
  already_a_candidate: "it was already a candidate"
}

/** Why nothing could take the payment, in a sentence. */
const nothingEligible = (evaluation: Evaluation): string => {
  const defaultProvider = evaluation.candidates.find((candidate) => candidate.rule_id === null)
  const why = defaultProvider === undefined
    ? "the organization has no default provider in this mode"
    : `the default provider '${defaultProvider.provider}' cannot take it: ${skipWords[defaultProvider.reason ?? ""] ?? "it is busy with a trial call"}`
  const ruled = evaluation.candidates.some((candidate) => candidate.rule_id !== null && candidate.reason !== "no_match")
  return ruled ? `no rule's provider can take it, and ${why}` : why
}

/**
 * Which connection takes a payment: the one the request forces; else, as the organization chose
 * for the mode, its default provider or its routing rules (the default last). A connection whose
 * circuit is open is passed over, except for the one trial call it takes once its cool-down is over.
 */
export class ProviderResolution extends Context.Tag("core/ProviderResolution")<ProviderResolution, {
  readonly forPayment: (
    tenant: Tenant,
    request: PaymentRoutingFacts & { readonly provider: string | undefined; readonly avoid?: ReadonlyArray<string> }
  ) => Effect.Effect<Resolved, ProviderNotUsable | NoProviderAvailable>
  /**
   * The connection a checkout session pays on: the routing rules, then the default provider, then
   * (so that a customer refused by one can still pay) any other active connection for the currency
   * and method, in the order they were made. `excluded` (the providers that already refused it) are
   * never chosen. Routing rules apply to checkout whatever `payments_routing` says (decisions §12).
   */
  readonly forCheckout: (
    tenant: Tenant,
    facts: RoutingFacts,
    excluded: ReadonlyArray<string>
  ) => Effect.Effect<ProviderConnection, NoProviderAvailable>
  /** The connection a stored payment was made on, deleted or not. */
  readonly byName: (tenant: Tenant, name: string) => Effect.Effect<ProviderConnection>
}>() {
  static readonly layer = Layer.effect(
    ProviderResolution,
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const organizations = yield* OrganizationsRepository
      const routing = yield* RoutingRules
      const health = yield* ConnectionHealth
      const connectorTypes = yield* Connectors
      /** The connection's own limits, and what its connector type takes (never a card to PayPal). */
      const usable = (connection: ProviderConnection, facts: PaymentRoutingFacts) =>
        supports(connection, facts.currency, facts.method) && connectorTypes.takes(connection.type, methodToTake(facts))

      /**
       * The organization's settings and connections. One after the other: both are kept a moment in
       * memory (see `RepositoriesWithRecentReads`), so side by side would mostly cost two fibers and win nothing.
       */
      const settingsOf = (tenant: Tenant) =>
        Effect.gen(function*() {
          const organization = yield* organizations.find(tenant.organizationId)
          return { organization, all: yield* connections.list(tenant) }
        })

      const forced = (tenant: Tenant, provider: string, facts: PaymentRoutingFacts) =>
        Effect.gen(function*() {
          const found = yield* connections.findByName(tenant, provider)
          if (Option.isNone(found)) return yield* new ProviderNotUsable({ provider, reason: `no provider named '${echoed(provider)}'` })
          const connection = found.value
          if (connection.status === "disabled") {
            return yield* new ProviderNotUsable({ provider, reason: `provider '${provider}' is disabled` })
          }
          if (!usable(connection, facts)) {
            return yield* new ProviderNotUsable({
              provider,
              reason: `provider '${provider}' does not support ${facts.currency} ${facts.method} payments`
            })
          }
          if (!(yield* health.admit(connection))) {
            return yield* new ProviderNotUsable({ provider, reason: `provider '${provider}' is in error (its circuit is open)` })
          }
          return { connection, fallbacks: [], routing: { strategy: "forced" as const, rule_id: null } }
        })

      const routed = (
        tenant: Tenant,
        facts: PaymentRoutingFacts,
        organization: Option.Option<Organization>,
        all: ReadonlyArray<ProviderConnection>,
        useRules: boolean,
        excluded: ReadonlyArray<string> = []
      ) =>
        Effect.gen(function*() {
          // Read once for the whole resolution; under default routing the rules are not read at all.
          const evaluation = yield* routing.evaluate(tenant, facts, excluded, { organization, connections: all, withRules: useRules })
          const eligible = useRules ? evaluation.eligible : evaluation.eligible.filter((candidate) => candidate.rule_id === null)
          const connectionOf = (candidate: Candidate) => all.find((connection) => connection.name === candidate.provider)!
          for (const [index, candidate] of eligible.entries()) {
            const connection = connectionOf(candidate)
            if (!(yield* health.admit(connection))) continue
            return {
              connection,
              fallbacks: eligible.slice(index + 1)
                .filter((next) => !next.trial && (facts.vaulted === true || connectionOf(next).type === connection.type))
                .map((next) => next.provider),
              routing: {
                strategy: candidate.rule_id === null ? "default" as const : "rules" as const,
                rule_id: candidate.rule_id
              }
            }
          }
          return yield* new NoProviderAvailable({
            reason: nothingEligible(useRules ? evaluation : { ...evaluation, candidates: evaluation.candidates.filter((c) => c.rule_id === null) })
          })
        })

      return {
        forPayment: (tenant, { avoid = [], provider, ...facts }) =>
          Effect.gen(function*() {
            if (provider !== undefined) return yield* forced(tenant, provider, facts)
            const { all, organization } = yield* settingsOf(tenant)
            const useRules = Option.exists(organization, (found) => paymentsRoutingOf(found, tenant.livemode) === "rules")
            if (avoid.length > 0) {
              const elsewhere = yield* Effect.either(routed(tenant, facts, organization, all, useRules, avoid))
              if (elsewhere._tag === "Right") return elsewhere.right
            }
            return yield* routed(tenant, facts, organization, all, useRules)
          }),
        forCheckout: (tenant, facts, excluded) =>
          Effect.gen(function*() {
            const { all, organization } = yield* settingsOf(tenant)
            const first = yield* Effect.either(routed(tenant, facts, organization, all, true, excluded))
            if (first._tag === "Right") return first.right.connection
            const others = all
              .filter((connection) =>
                connection.status !== "disabled" && !excluded.includes(connection.name) &&
                usable(connection, facts)
              )
              .sort((a, b) => a.created_at.epochMillis - b.created_at.epochMillis || (a.id < b.id ? -1 : 1))
            for (const connection of others) {
              if (yield* health.admit(connection)) return connection
            }
            return yield* first.left
          }),
        byName: (tenant, name) =>
          connections.findByNameEver(tenant, name).pipe(
            Effect.flatMap(Option.match({
              onNone: () => Effect.dieMessage(`connection '${name}' of a stored payment is gone`),
              onSome: Effect.succeed
            }))
          )
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(RoutingRules.layer, ConnectionHealth.layer, Connectors.layer)))
}
