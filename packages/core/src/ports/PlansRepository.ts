import { Context, type Effect, type Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Plan } from "../domain/subscriptions/Plan.js"
import type { Tenant } from "../domain/Tenant.js"

export class PlansRepository extends Context.Tag("core/PlansRepository")<PlansRepository, {
  readonly insert: (tenant: Tenant, plan: Plan) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Plan>>
  readonly list: (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<Plan>, InvalidCursor>
}>() {}
