import { Context, Effect, Layer, Option } from "effect"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { type CreatePlan, Plan } from "../../domain/subscriptions/Plan.js"
import { PlanNotFound } from "../../domain/subscriptions/SubscriptionErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { PlansRepository } from "../../ports/PlansRepository.js"

export class Plans extends Context.Tag("core/Plans")<
  Plans,
  ResourceReads<Plan, PlanNotFound> & {
    readonly create: (tenant: Tenant, input: CreatePlan) => Effect.Effect<Plan>
  }
>() {
  static readonly layer = Layer.effect(
    Plans,
    Effect.gen(function*() {
      const repository = yield* PlansRepository
      const ids = yield* IdGenerator
      return {
        create: Effect.fn("Plans.create")(function*(tenant: Tenant, input: CreatePlan) {
          const plan = new Plan({
            object: "plan",
            id: yield* ids.make("plan"),
            amount: input.amount,
            currency: input.currency,
            interval: input.interval,
            interval_count: input.interval_count ?? 1,
            trial_days: input.trial_days ?? null,
            metadata: input.metadata ?? {},
            created_at: yield* now,
            livemode: tenant.livemode
          })
          yield* repository.insert(tenant, plan)
          return plan
        }),
        retrieve: (tenant, id) =>
          Effect.flatMap(
            repository.find(tenant, id),
            Option.match({
              onNone: () => Effect.fail(new PlanNotFound({ id })),
              onSome: Effect.succeed
            })
          ),
        list: (tenant, page) => repository.list(tenant, page)
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
