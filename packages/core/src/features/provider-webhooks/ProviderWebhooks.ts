import { Context, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import type { Leased } from "../../domain/LeasedWork.js"
import { plausibleCapture } from "../../domain/payments/PaymentOutcomes.js"
import { StoredProviderEvent } from "../../domain/providers/ProviderEvent.js"
import { ProviderWebhookRejected, type ProviderWebhookThrottled } from "../../domain/providers/ProviderWebhookErrors.js"
import { now } from "../../domain/Timestamp.js"
import { findUnstorable, placeName, type UnstorablePlace } from "../../domain/UnstorableText.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import type { IncomingWebhook } from "../../ports/PaymentConnector.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { APPLY_SHARE, ProviderEventsRepository, type ReceivedEvent } from "../../ports/ProviderEventsRepository.js"
import { Connectors } from "../connections/Connectors.js"
import { Disputes } from "../disputes/Disputes.js"
import { drainLeased } from "../jobs/LeasedDrain.js"
import { rememberConnectionType } from "../observability/ProviderMetrics.js"
import { traced } from "../observability/Traced.js"
import { Payments } from "../payments/Payments.js"
import { Refunds } from "../refunds/Refunds.js"
import { NativeBilling } from "../subscriptions/NativeBilling.js"
import { makeWebhookIntake } from "./WebhookIntake.js"

/** The refusal of a signed body holding text the database cannot store, naming where. */
const unstorableRejection = (unstorable: UnstorablePlace) => {
  const field = placeName(unstorable.path)
  return new ProviderWebhookRejected({
    reason: `${unstorable.inKey ? "a key of " : ""}${field ?? "the body"} holds a NUL character or half a surrogate pair`,
    field
  })
}

/** Where a verified JSON body holds text the database cannot store (NUL, half a surrogate pair), if it does. */
const unstorableField = (body: Uint8Array): UnstorablePlace | undefined => {
  const text = new TextDecoder().decode(body)
  // JSON carries either only as a `\u` escape.
  if (!text.includes("\\u")) return undefined
  try {
    return findUnstorable(JSON.parse(text))
  } catch {
    return undefined
  }
}

/** An event whose payment or refund has not turned up within this long is set aside as unmatched. */
export const UNMATCHED_AFTER = Duration.days(1)

const toStored = Schema.decodeUnknownSync(StoredProviderEvent)

/**
 * The PSPs' own webhooks: verified on the exact bytes with the connection's secret and scheme,
 * stored once per PSP event id and answered at once; the worker then applies each as a state move,
 * where it is news. An event about an object not known yet is kept and tried again.
 */
export class ProviderWebhooks extends Context.Tag("core/ProviderWebhooks")<ProviderWebhooks, {
  /**
   * How many of the webhook's events were new (a repeat is accepted and ignored), and the body the
   * PSP expects in answer, when it expects one of its own.
   */
  readonly receive: (connectionId: string, webhook: IncomingWebhook) => Effect.Effect<
    { readonly received: number; readonly duplicates: number; readonly acknowledgement?: string },
    ProviderWebhookRejected | ProviderWebhookThrottled
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
      const paymentOperations = yield* Payments
      const refunds = yield* Refunds
      const nativeBilling = yield* NativeBilling
      const disputes = yield* Disputes
      const ids = yield* IdGenerator
      const intake = yield* makeWebhookIntake

      const receive = Effect.fn("ProviderWebhooks.receive")(function*(connectionId: string, webhook: IncomingWebhook) {
        const owned = yield* connections.findOwned(connectionId)
        if (Option.isNone(owned)) return yield* new ProviderWebhookRejected({ reason: "no such connection" })
        const connector = yield* Effect.orDie(connectors.forConnection(owned.value.connection))
        rememberConnectionType(owned.value.tenant, owned.value.connection)
        const acknowledged = <A extends object>(receipt: A) =>
          connector.webhookAcknowledgement === undefined ? receipt : { ...receipt, acknowledgement: connector.webhookAcknowledgement }
        // Before any call the connector would make to its PSP to read the webhook.
        const decision = yield* intake.admit(owned.value.connection, connector, webhook)
        if (decision._tag === "Refused") return yield* new ProviderWebhookRejected({ reason: decision.reason })
        if (decision._tag === "Repeat") return acknowledged({ received: 0, duplicates: 1 })
        const verified = yield* connector.verifyWebhook(webhook).pipe(
          Effect.tapError((error) => error.settled === true ? intake.disowned(owned.value.connection, connector, webhook, error.reason) : Effect.void),
          // Signed, and refused for what it holds: where that is text the database cannot store, it says so.
          Effect.mapError((error) => {
            const unstorable = error.signed === true ? unstorableField(webhook.body) : undefined
            return unstorable === undefined ? new ProviderWebhookRejected({ reason: error.reason }) : unstorableRejection(unstorable)
          })
        )
        // Signed by the PSP and still refused: a 400 the PSP sees, where storing it would fail with a 500.
        const unstorable = unstorableField(webhook.body)
        if (unstorable !== undefined) return yield* unstorableRejection(unstorable)
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
        return acknowledged({ received, duplicates: verified.length - received })
      })

      /**
       * Whether the event found its object, and applied it where it was news. A connection speaks
       * only for the payments, refunds and native subscriptions made on it: a webhook verified with one connection's
       * secret that names another's object is refused, whoever holds that secret.
       */
      const apply = ({ connectionId, event, tenant }: ReceivedEvent) =>
        Effect.gen(function*() {
          const owned = yield* connections.findOwned(connectionId)
          if (Option.isNone(owned)) return "foreign" as const
          // The worker applies what the HTTP process received: the payment it settles is counted under this type.
          rememberConnectionType(owned.value.tenant, owned.value.connection)
          const provider = owned.value.connection.name
          if (event._tag === "SubscriptionUpdated") return yield* nativeBilling.apply(tenant, provider, event)
          if (event._tag === "DisputeUpdated") return yield* disputes.applyFact(tenant, provider, event.fact)
          if (event._tag === "PaymentUpdated") {
            const payment = yield* payments.findByReference(tenant, { attemptId: event.reference, pspPaymentId: event.pspPaymentId })
            if (Option.isNone(payment)) return "unknown" as const
            const ours = payment.value.attempts.filter((each) => each.provider === provider)
            const attempt = ours.find((each) => each.id === event.reference) ??
              ours.find((each) => event.pspPaymentId !== null && each.provider_payment_id === event.pspPaymentId)
            if (attempt === undefined) return "foreign" as const
            // Data that cannot be true of the payment: not believed, and not counted as the PSP's news.
            if (
              event.outcome._tag === "Authorized" && event.outcome.captured &&
              !plausibleCapture(payment.value, event.outcome.amountCaptured)
            ) return "refused" as const
            yield* paymentOperations.applyReport(tenant, payment.value, attempt.id, event.outcome)
            return "applied" as const
          }
          return yield* refunds.applyReport(
            tenant,
            provider,
            { refundId: event.reference, pspRefundId: event.pspRefundId },
            event.outcome
          )
        })

      const handle = (leased: Leased<ReceivedEvent>) =>
        Effect.gen(function*() {
          const at = yield* now
          const applied = yield* apply(leased.item)
          if (applied === "applied") return yield* events.markApplied(leased, "applied", at)
          if (applied === "foreign") {
            yield* Effect.logWarning("A PSP event names a payment or refund of another connection; it is ignored").pipe(
              Effect.annotateLogs({ connection: leased.item.connectionId, event: leased.item.event.eventId })
            )
            return yield* events.markApplied(leased, "unmatched", at)
          }
          if (applied === "refused") {
            yield* Effect.logWarning("A PSP event reports a capture the payment cannot have; it is not applied").pipe(
              Effect.annotateLogs({ connection: leased.item.connectionId, event: leased.item.event.eventId })
            )
            return yield* events.markApplied(leased, "refused", at)
          }
          // Its object may not be written yet: keep it (its lease spaces the tries), unless it has waited too long.
          const expired = !DateTime.lessThan(at, DateTime.add(leased.item.receivedAt, { millis: Duration.toMillis(UNMATCHED_AFTER) }))
          if (expired) yield* events.markApplied(leased, "unmatched", at)
          else yield* events.finishClaim(leased.item.id, leased.token)
        }).pipe(Effect.asVoid)

      const applyDue = drainLeased({
        claim: events.claimUnapplied,
        handle,
        leaseFor: "1 minute",
        concurrency: 4,
        share: APPLY_SHARE,
        maxPerPass: 1000
      }).pipe(traced("ProviderWebhooks.applyDue"))

      return { receive, applyDue, jobs: [{ name: "apply-provider-events", every: "1 second", run: applyDue }] }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, Connectors.layer, Payments.layer, Refunds.layer, NativeBilling.layer, Disputes.layer)))
}
