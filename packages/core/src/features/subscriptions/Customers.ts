import { Context, Effect, Layer, Option } from "effect"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { type CreateCustomer, Customer } from "../../domain/subscriptions/Customer.js"
import { BillingRequestInvalid, CustomerNotFound, ReferenceNotFound } from "../../domain/subscriptions/SubscriptionErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { type CustomerListFilter, CustomersRepository } from "../../ports/CustomersRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { TestClocksRepository } from "../../ports/TestClocksRepository.js"

export class Customers extends Context.Tag("core/Customers")<
  Customers,
  ResourceReads<Customer, CustomerNotFound, CustomerListFilter> & {
    readonly create: (tenant: Tenant, input: CreateCustomer) => Effect.Effect<Customer, ReferenceNotFound | BillingRequestInvalid>
  }
>() {
  static readonly layer = Layer.effect(
    Customers,
    Effect.gen(function*() {
      const repository = yield* CustomersRepository
      const clocks = yield* TestClocksRepository
      const ids = yield* IdGenerator
      return {
        create: Effect.fn("Customers.create")(function*(tenant: Tenant, input: CreateCustomer) {
          if (input.test_clock !== undefined) {
            if (tenant.livemode) {
              return yield* new BillingRequestInvalid({
                param: "test_clock",
                code: "test_clock_livemode",
                message: "Test clocks exist only in test mode."
              })
            }
            if (Option.isNone(yield* clocks.find(tenant, input.test_clock))) {
              return yield* new ReferenceNotFound({ param: "test_clock", id: input.test_clock })
            }
          }
          const customer = new Customer({
            object: "customer",
            id: yield* ids.make("cus"),
            email: input.email ?? null,
            name: input.name ?? null,
            metadata: input.metadata ?? {},
            test_clock: input.test_clock ?? null,
            created_at: yield* now,
            livemode: tenant.livemode
          })
          yield* repository.insert(tenant, customer)
          return customer
        }),
        retrieve: (tenant, id) =>
          Effect.flatMap(
            repository.find(tenant, id),
            Option.match({
              onNone: () => Effect.fail(new CustomerNotFound({ id })),
              onSome: Effect.succeed
            })
          ),
        list: (tenant, filter, page) => repository.list(tenant, filter, page)
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
