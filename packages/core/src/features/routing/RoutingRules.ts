import { Context, DateTime, Effect, Either, Layer, Option, Schema } from "effect"
import { echoed } from "../../domain/EchoedText.js"
import { type ResourceLimitExceeded, roomForOneMore } from "../../domain/limits/ResourceLimits.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { RoutingRuleInvalid, RoutingRuleNotFound } from "../../domain/routing/RoutingErrors.js"
import { eligibility, evaluateRouting, type Evaluation, type RoutingDecision } from "../../domain/routing/RoutingEvaluation.js"
import { type CreateRoutingRule, type RoutingFacts, RoutingRule, type UpdateRoutingRule, validateConditions } from "../../domain/routing/RoutingRule.js"
import { defaultProviderOf, type Organization, PaymentsRouting, paymentsRoutingOf } from "../../domain/tenancy/Organization.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { CardVault, isVaultToken } from "../../ports/CardVault.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { RoutingRulesRepository } from "../../ports/RoutingRulesRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { knownCardOf, routingFactsOf } from "./PaymentFacts.js"

/**
 * A dry run's question: the body of a payment (fields routing does not look at are accepted and left
 * alone), the `payments_routing` to assume (the organization's by default), and providers to leave out.
 */
export const EvaluateRouting = Schema.Struct({
  amount: Schema.Int,
  currency: Schema.String,
  payment_method: Schema.Struct({
    type: Schema.String,
    token: Schema.optional(Schema.String),
    brand: Schema.optional(Schema.String),
    last4: Schema.optional(Schema.String),
    country: Schema.optional(Schema.String)
  }).annotations({ parseOptions: { onExcessProperty: "ignore" } }),
  provider: Schema.optional(Schema.String),
  mode: Schema.optional(PaymentsRouting),
  exclude: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "EvaluateRouting", parseOptions: { onExcessProperty: "ignore" } })
export type EvaluateRouting = typeof EvaluateRouting.Type

/** What a caller of `evaluate` may already hold, so nothing is read twice for one payment. */
export interface KnownState {
  readonly organization: Option.Option<Organization>
  readonly connections: ReadonlyArray<ProviderConnection>
  readonly withRules: boolean
}

/** Routing rules: kept per organization and mode, and evaluated the same way by every caller. */
export class RoutingRules extends Context.Tag("core/RoutingRules")<
  RoutingRules,
  ResourceReads<RoutingRule, RoutingRuleNotFound> & {
    readonly create: (
      tenant: Tenant,
      input: CreateRoutingRule
    ) => Effect.Effect<RoutingRule, RoutingRuleInvalid | ResourceLimitExceeded>
    readonly update: (
      tenant: Tenant,
      id: string,
      input: UpdateRoutingRule
    ) => Effect.Effect<RoutingRule, RoutingRuleNotFound | RoutingRuleInvalid>
    readonly remove: (tenant: Tenant, id: string) => Effect.Effect<void, RoutingRuleNotFound>
    /**
     * Where a payment with these facts goes, and why, computed from the rules and connections as they
     * are now. A caller that has read the organization and the connections already passes them
     * (`known`), and one routing by default only (`withRules: false`) skips reading the rules.
     */
    readonly evaluate: (
      tenant: Tenant,
      facts: RoutingFacts,
      excluded: ReadonlyArray<string>,
      known?: KnownState
    ) => Effect.Effect<Evaluation>
    /**
     * The dry run: `evaluate` for a payment body, as the API shows it, under the organization's
     * `payments_routing` (or the one asked about), with the card's country taken as a payment takes it.
     */
    readonly explain: (tenant: Tenant, input: EvaluateRouting) => Effect.Effect<RoutingDecision>
  }
>() {
  static readonly layer = Layer.effect(
    RoutingRules,
    Effect.gen(function*() {
      const repository = yield* RoutingRulesRepository
      const connections = yield* ProviderConnectionsRepository
      const organizations = yield* OrganizationsRepository
      const ids = yield* IdGenerator
      const transactions = yield* Transactions
      const connectorTypes = yield* Connectors

      const load = (tenant: Tenant, id: string) =>
        Effect.flatMap(
          repository.find(tenant, id),
          Option.match({ onNone: () => Effect.fail(new RoutingRuleNotFound({ id })), onSome: Effect.succeed })
        )

      const checkedConditions = (raw: Readonly<Record<string, unknown>>) =>
        Either.match(validateConditions(raw), {
          onLeft: (problem) => Effect.fail(new RoutingRuleInvalid(problem)),
          onRight: Effect.succeed
        })

      const checkedProvider = (tenant: Tenant, provider: string) =>
        Effect.flatMap(connections.findByName(tenant, provider), (found) =>
          Option.isSome(found)
            ? Effect.void
            : Effect.fail(new RoutingRuleInvalid({ param: "action.provider", reason: `no provider named '${echoed(provider)}' in this mode` })))

      const evaluate = (tenant: Tenant, facts: RoutingFacts, excluded: ReadonlyArray<string>, known?: KnownState) =>
        Effect.gen(function*() {
          const organization = known?.organization ?? (yield* organizations.find(tenant.organizationId))
          return evaluateRouting({
            rules: known?.withRules === false ? [] : yield* repository.all(tenant),
            connections: known?.connections ?? (yield* connections.list(tenant)),
            defaultProvider: Option.getOrNull(Option.flatMapNullable(organization, (found) => defaultProviderOf(found, tenant.livemode))),
            facts,
            excluded,
            now: yield* DateTime.now,
            takes: connectorTypes.takes
          })
        })

      return {
        create: Effect.fn("RoutingRules.create")(function*(tenant: Tenant, input: CreateRoutingRule) {
          const conditions = yield* checkedConditions(input.conditions)
          yield* checkedProvider(tenant, input.action.provider)
          const createdAt = yield* now
          const rule = new RoutingRule({
            object: "routing_rule",
            id: yield* ids.make("rule"),
            priority: input.priority,
            conditions,
            action: { provider: input.action.provider },
            enabled: input.enabled ?? true,
            livemode: tenant.livemode,
            created_at: createdAt,
            updated_at: createdAt
          })
          return yield* transactions.run(Effect.gen(function*() {
            // Creations at once wait for each other here, so the last place is taken once.
            yield* organizations.lock(tenant.organizationId)
            yield* roomForOneMore("routing_rules", (yield* repository.all(tenant)).length)
            yield* repository.insert(tenant, rule)
            return rule
          }))
        }),
        retrieve: load,
        list: repository.page,
        update: Effect.fn("RoutingRules.update")(function*(tenant: Tenant, id: string, input: UpdateRoutingRule) {
          const rule = yield* load(tenant, id)
          const conditions = input.conditions === undefined ? rule.conditions : yield* checkedConditions(input.conditions)
          if (input.action !== undefined) yield* checkedProvider(tenant, input.action.provider)
          const updated = new RoutingRule({
            ...rule,
            priority: input.priority ?? rule.priority,
            conditions,
            action: input.action === undefined ? rule.action : { provider: input.action.provider },
            enabled: input.enabled ?? rule.enabled,
            updated_at: yield* now
          })
          yield* repository.update(tenant, updated)
          return updated
        }),
        remove: (tenant, id) =>
          Effect.flatMap(repository.delete(tenant, id), (deleted) => deleted ? Effect.void : Effect.fail(new RoutingRuleNotFound({ id }))),
        evaluate,
        explain: explainRouting({ repository, connections, organizations, connectorTypes })
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, Connectors.layer)))
}

/** What the dry run reads: the rules, the connections, the organization and the connectors' card facts. */
interface ExplainReads {
  readonly repository: Context.Tag.Service<typeof RoutingRulesRepository>
  readonly connections: Context.Tag.Service<typeof ProviderConnectionsRepository>
  readonly organizations: Context.Tag.Service<typeof OrganizationsRepository>
  readonly connectorTypes: Context.Tag.Service<typeof Connectors>
}

/** What the vault shows of a card, for routing; nothing known when the token is not one of this tenant's cards. */
const vaultedCardOf = (tenant: Tenant, token: string) =>
  Effect.gen(function*() {
    const vault = yield* Effect.serviceOption(CardVault)
    const facts = Option.isNone(vault) ? Option.none() : yield* Effect.option(vault.value.forPayment(tenant, token))
    return Option.match(facts, {
      onNone: () => ({ brand: null, last4: null, country: null }),
      onSome: (found) => ({ brand: found.brand, last4: found.last4, country: found.country })
    })
  })

/** The dry run of `RoutingRules.explain`, on its own: the longest operation, and one that writes nothing. */
const explainRouting =
  ({ connections, connectorTypes, organizations, repository }: ExplainReads) => (tenant: Tenant, input: EvaluateRouting): Effect.Effect<RoutingDecision> =>
    Effect.gen(function*() {
      const organization = yield* organizations.find(tenant.organizationId)
      const mode = input.mode ??
        Option.match(organization, { onNone: () => "default" as const, onSome: (found) => paymentsRoutingOf(found, tenant.livemode) })
      // A card from the vault routes as a payment by it would: where raw cards go, with its BIN's country.
      const vaulted = isVaultToken(input.payment_method.token ?? null)
      const card = vaulted
        ? yield* vaultedCardOf(tenant, input.payment_method.token!)
        : yield* knownCardOf(connectorTypes, input.payment_method)
      const facts = { ...routingFactsOf(input, card), vaulted }
      const listed = yield* connections.list(tenant)
      const excluded = input.exclude ?? []
      const time = yield* DateTime.now
      const common = {
        object: "routing_evaluation" as const,
        mode,
        payment_method: { type: input.payment_method.type, brand: card.brand, country: card.country }
      }
      if (input.provider !== undefined) {
        // Forced, as a payment naming its provider: no rule is asked and it never changes PSP.
        const forced = input.provider
        const { reason, trial } = eligibility(
          listed.find((connection) => connection.name === forced),
          facts,
          excluded,
          time,
          connectorTypes.takes
        )
        return {
          ...common,
          routing: reason === null ? { strategy: "forced" as const, rule_id: null } : null,
          provider: reason === null ? forced : null,
          rule_id: null,
          fallbacks: [],
          candidates: [{ rule_id: null, priority: null, provider: forced, result: reason === null ? "chosen" as const : "skipped" as const, reason, trial }]
        }
      }
      const evaluation = evaluateRouting({
        rules: yield* repository.all(tenant),
        connections: listed,
        defaultProvider: Option.getOrNull(Option.flatMapNullable(organization, (found) => defaultProviderOf(found, tenant.livemode))),
        facts,
        excluded,
        now: time,
        rulesUsed: mode === "rules",
        takes: connectorTypes.takes
      })
      const chosen = evaluation.eligible[0]
      const typeOf = (name: string) => listed.find((connection) => connection.name === name)?.type
      return {
        ...common,
        routing: chosen === undefined
          ? null
          : { strategy: chosen.rule_id === null ? "default" as const : "rules" as const, rule_id: chosen.rule_id },
        provider: chosen?.provider ?? null,
        rule_id: chosen?.rule_id ?? null,
        // As a payment fails over: later eligible ones of the same type (of any type for a vaulted card), none taken only as a trial call.
        fallbacks: evaluation.eligible.slice(1)
          .filter((candidate) => !candidate.trial && (vaulted || typeOf(candidate.provider) === typeOf(chosen!.provider)))
          .map((candidate) => candidate.provider),
        candidates: evaluation.candidates
      }
    })
