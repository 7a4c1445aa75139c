import { Effect, Layer, Option } from "effect"
import { InvalidCursor } from "../domain/Pagination.js"
import type { RoutingRule } from "../domain/routing/RoutingRule.js"
import type { Tenant } from "../domain/Tenant.js"
import { byEvaluationOrder, RoutingRulesRepository } from "../ports/RoutingRulesRepository.js"
import { MemoryStore } from "./MemoryStore.js"

/** `RoutingRulesRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryRoutingRulesRepository = Layer.effect(
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
