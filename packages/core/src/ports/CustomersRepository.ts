import { Context, type Effect, type Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Customer } from "../domain/subscriptions/Customer.js"
import type { Tenant } from "../domain/Tenant.js"

/** What a list of customers may be narrowed to. */
export interface CustomerListFilter {
  readonly email: string | undefined
}

export class CustomersRepository extends Context.Tag("core/CustomersRepository")<CustomersRepository, {
  readonly insert: (tenant: Tenant, customer: Customer) => Effect.Effect<void>
  readonly find: (tenant: Tenant, id: string) => Effect.Effect<Option.Option<Customer>>
  readonly list: (tenant: Tenant, filter: CustomerListFilter, page: PageRequest) => Effect.Effect<Page<Customer>, InvalidCursor>
}>() {}
