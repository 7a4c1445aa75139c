import { Context, Data, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { now } from "../domain/Timestamp.js"
import { PaymentAttempts } from "../payments/PaymentAttempts.js"
import { PaymentsRepository } from "../payments/PaymentsRepository.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { drainLeased, type Leased } from "../ports/LeasedWork.js"
import { Refunds } from "../refunds/Refunds.js"
import { Connectors } from "./Connectors.js"
import type { IncomingWebhook } from "./PaymentConnector.js"
import { StoredProviderEvent } from "./ProviderEvent.js"
import { ProviderConnectionsRepository } from "./ProviderConnectionsRepository.js"
import { type ReceivedEvent, ProviderEventsRepository } from "./ProviderEventsRepository.js"

/** A PSP webhook that is not provably from the PSP of a connection: nothing of it is stored. */
export class ProviderWebhookRejected extends Data.TaggedError("ProviderWebhookRejected")<{ readonly reason: string }> {}

/** An event whose payment or refund has not turned up within this long is set aside as unmatched. */
export const UNMATCHED_AFTER = Duration.days(1)

const toStored = Schema.decodeUnknownSync(StoredProviderEvent)

/**
 * The PSPs' own webhooks: verified on the exact bytes with the connection's secret and scheme,
 * stored once per PSP event id and answered at once; the worker then applies each as a state move,
 * where it is news. An event about an object not known yet is kept and tried again.
 */
export class ProviderWebhooks extends Context.Tag("core/ProviderWebhooks")<ProviderWebhooks, {
  /** How many of the webhook's events were new (a repeat is accepted and ignored). */
  readonly receive: (connectionId: string, webhook: IncomingWebhook) => Effect.Effect<
    { readonly received: number; readonly duplicates: number },
    ProviderWebhookRejected
  >
  readonly applyDue: Effect.Effect<number>
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(
    ProviderWebhooks,
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const connectors = yield* Connectors
      const events = yield* ProviderEventsRepository
      const payments = yield* PaymentsRepository
      const attempts = yield* PaymentAttempts
      const refunds = yield* Refunds
      const ids = yield* IdGenerator

      const receive = Effect.fn("ProviderWebhooks.receive")(function*(connectionId: string, webhook: IncomingWebhook) {
        const owned = yield* connections.findOwned(connectionId)
        if (Option.isNone(owned)) return yield* new ProviderWebhookRejected({ reason: "no such connection" })
        const connector = yield* Effect.orDie(connectors.forConnection(owned.value.connection))
        const verified = yield* connector.verifyWebhook(webhook).pipe(
          Effect.mapError((error) => new ProviderWebhookRejected({ reason: error.reason }))
        )
        let received = 0
        for (const event of verified) {
          const isNew = yield* events.insert({
            id: yield* ids.make("psev"),
            connectionId,
            tenant: owned.value.tenant,
            event: toStored(event),
            receivedAt: yield* now
          })
          if (isNew) received++
        }
        return { received, duplicates: verified.length - received }
      })

      /** Whether the event found its object (and was applied, where it was news). */
      const apply = ({ event, tenant }: ReceivedEvent) =>
        Effect.gen(function*() {
          if (event._tag === "PaymentUpdated") {
            const payment = yield* payments.findByReference(tenant, { attemptId: event.reference, pspPaymentId: event.pspPaymentId })
            if (Option.isNone(payment)) return false
            const attempt = payment.value.attempts.find((each) => each.id === event.reference) ??
              payment.value.attempts.find((each) => each.provider_payment_id === event.pspPaymentId) ??
              payment.value.attempts.at(-1)
            if (attempt !== undefined) yield* attempts.applyReport(tenant, payment.value, attempt.id, event.outcome)
            return true
          }
          return yield* refunds.applyReport(tenant, { refundId: event.reference, pspRefundId: event.pspRefundId }, event.outcome)
        })

      const handle = (leased: Leased<ReceivedEvent>) =>
        Effect.gen(function*() {
          const at = yield* now
          if (yield* apply(leased.item)) return yield* events.markApplied(leased, "applied", at)
          // Its object may not be written yet: keep it, unless it has waited too long.
          const expired = !DateTime.lessThan(at, DateTime.add(leased.item.receivedAt, { millis: Duration.toMillis(UNMATCHED_AFTER) }))
          if (expired) yield* events.markApplied(leased, "unmatched", at)
        }).pipe(Effect.asVoid)

      const applyDue = drainLeased({
        claim: events.claimUnapplied,
        handle,
        leaseFor: "1 minute",
        concurrency: 4,
        maxPerPass: 1000
      }).pipe(Effect.withSpan("ProviderWebhooks.applyDue"))

      return { receive, applyDue, jobs: [{ name: "apply-provider-events", every: "1 second", run: applyDue }] }
    })
  )
}
