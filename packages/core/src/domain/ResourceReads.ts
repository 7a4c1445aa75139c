import type { Effect } from "effect"
import type { InvalidCursor, Page, PageRequest } from "./Pagination.js"
import type { Tenant } from "./Tenant.js"

/**
 * What a service answers for a resource's `retrieve` and `list`: one of the tenant's by id, or
 * `NotFound`; and a page of the tenant's, narrowed by a `Filter` where the list takes one.
 */
export interface ResourceReads<A, NotFound, Filter = never> {
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<A, NotFound>
  readonly list: [Filter] extends [never] ? (tenant: Tenant, page: PageRequest) => Effect.Effect<Page<A>, InvalidCursor>
    : (tenant: Tenant, filter: Filter, page: PageRequest) => Effect.Effect<Page<A>, InvalidCursor>
}
