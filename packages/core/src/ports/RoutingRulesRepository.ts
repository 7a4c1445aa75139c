import { Context, Effect, Option } from "effect"
import { InvalidCursor, type Page, type PageRequest } from "../domain/Pagination.js"
import type { RoutingRule } from "../domain/routing/RoutingRule.js"
import type { Tenant } from "../domain/Tenant.js"

/** Evaluation order: priority, then age, then id. Lists of rules come in this order too. */
export const byEvaluationOrder = (a: RoutingRule, b: RoutingRule) =>
  a.priority - b.priority || a.created_at.epochMillis - b.created_at.epochMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export class RoutingRulesRepository extends Context.Tag("core/RoutingRulesRepository")<RoutingRulesRepository, {
  readonly insert: (tenant: Tenant, rule: RoutingRule) => Effect.Effect<void>
  readonly update: (tenant: Tenant, rule: RoutingRule) => Effect.Effect<void>
  readonly delete: (tenant: Tenant, id: string) => Effect.Effect<boolean>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<RoutingRule>>
  /** Every rule of the tenant, in evaluation order. */
  readonly all: (tenant: Tenant) => Effect.Effect<ReadonlyArray<RoutingRule>>
  /** A page of rules in evaluation order; the cursor is the last rule's id. */
  readonly page: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<RoutingRule>, InvalidCursor>
}>() {}
