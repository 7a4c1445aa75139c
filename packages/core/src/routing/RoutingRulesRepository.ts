import { Context, Effect, Layer, Option } from "effect"
import { InvalidCursor, type Page, type PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { RoutingRule } from "./RoutingRule.js"

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
}>() {
  static readonly layerMemory = Layer.effect(
    RoutingRulesRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => store.table<{ readonly organizationId: string; readonly rule: RoutingRule }>("routing_rules")
      const mine = (tenant: Tenant) =>
        [...rows().values()]
          .filter((row) => row.organizationId === tenant.organizationId && row.rule.livemode === tenant.livemode)
          .map((row) => row.rule)
          .sort(byEvaluationOrder)
      const save = (tenant: Tenant, rule: RoutingRule) => Effect.sync(() => void rows().set(rule.id, { organizationId: tenant.organizationId, rule }))
      return {
        insert: save,
        update: save,
        delete: (tenant, id) => Effect.sync(() => mine(tenant).some((rule) => rule.id === id) && rows().delete(id)),
        find: (tenant, id) => Effect.sync(() => Option.fromNullable(mine(tenant).find((rule) => rule.id === id))),
        all: (tenant) => Effect.sync(() => mine(tenant)),
        page: (tenant, page) =>
          Effect.gen(function*() {
            const rules = mine(tenant)
            let start = 0
            if (page.startingAfter !== undefined) {
              const index = rules.findIndex((rule) => rule.id === page.startingAfter)
              if (index === -1) return yield* new InvalidCursor({ cursor: page.startingAfter })
              start = index + 1
            }
            const rest = rules.slice(start)
            return { data: rest.slice(0, page.limit), hasMore: rest.length > page.limit }
          })
      }
    })
  )
}
