import { Clock, Context, DateTime, Effect, Layer, Option } from "effect"
import { summarizeTallies } from "../../domain/insights/AttemptTallies.js"
import type { Insights, PaymentTimeline } from "../../domain/insights/Insights.js"
import { PaymentNotFound } from "../../domain/payments/PaymentErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { InsightsRepository } from "../../ports/InsightsRepository.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"

/** The window `GET /v1/insights` may ask for: an hour to the 30 days events are kept. */
export const MAX_INSIGHT_HOURS = 720
export const DEFAULT_INSIGHT_HOURS = 24

/** Hourly buckets up to two days, daily beyond: a chart keeps a readable number of points. */
export const bucketMinutesFor = (hours: number) => (hours <= 48 ? 60 : 1440)

/** The dashboard's read side: provider health and volume over time, and a payment's timeline. */
export class InsightsReader extends Context.Tag("core/InsightsReader")<InsightsReader, {
  readonly insights: (tenant: Tenant, hours: number) => Effect.Effect<Insights>
  readonly paymentTimeline: (tenant: Tenant, paymentId: string) => Effect.Effect<PaymentTimeline, PaymentNotFound>
}>() {
  static readonly layer = Layer.effect(
    InsightsReader,
    Effect.gen(function*() {
      const repository = yield* InsightsRepository
      const payments = yield* PaymentsRepository
      return {
        insights: (tenant, hours) =>
          Effect.gen(function*() {
            const until = yield* Clock.currentTimeMillis
            const bucketMinutes = bucketMinutesFor(hours)
            const bucketMillis = bucketMinutes * 60_000
            const since = DateTime.unsafeMake(until - hours * 3_600_000)
            const [tallies, deliveries] = yield* Effect.all([
              repository.attemptTallies(tenant, since, bucketMillis),
              repository.deliveryCounts(tenant, since)
            ], { concurrency: 2 })
            return {
              object: "insights" as const,
              since,
              until: DateTime.unsafeMake(until),
              bucket_minutes: bucketMinutes,
              providers: summarizeTallies(tallies, since.epochMillis, until, bucketMillis),
              deliveries,
              livemode: tenant.livemode
            }
          }),
        paymentTimeline: (tenant, paymentId) =>
          Effect.gen(function*() {
            if (Option.isNone(yield* payments.find(tenant, paymentId))) return yield* new PaymentNotFound({ id: paymentId })
            const events = yield* repository.paymentEvents(tenant, paymentId)
            const deliveries = yield* repository.deliveriesOf(tenant, events.map((event) => event.id))
            return { object: "payment_timeline" as const, payment_id: paymentId, events, deliveries, livemode: tenant.livemode }
          })
      }
    })
  )
}
