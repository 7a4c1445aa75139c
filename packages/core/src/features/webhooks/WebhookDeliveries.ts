import { Cache, Clock, Context, Data, DateTime, Duration, Effect, FiberRef, Layer, Option, Random, Schema } from "effect"
import { causeAttributes, causeLinks, CurrentCausingRequest } from "../../domain/events/CausingRequest.js"
import { API_VERSION, Event } from "../../domain/events/Event.js"
import { subscribesTo } from "../../domain/events/WebhookEndpointRequests.js"
import type { Leased } from "../../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../../domain/Pagination.js"
import type { Tenant } from "../../domain/Tenant.js"
import { storableText } from "../../domain/Text.js"
import { now } from "../../domain/Timestamp.js"
import { ATTEMPT_TIMEOUT, nextDelayMillis } from "../../domain/webhooks/DeliverySchedule.js"
import { deliveryShare, type EndpointHealth, HEALTHY, verdictOf, WebhookDeliveryPolicy } from "../../domain/webhooks/EndpointHealth.js"
import { type DeliveryListFilter, type ResendDeliveries, WebhookAttempt, WebhookDelivery } from "../../domain/webhooks/WebhookDelivery.js"
import type { WebhookEndpoint } from "../../domain/webhooks/WebhookEndpointResource.js"
import { WebhookDeliveryNotFound } from "../../domain/webhooks/WebhookErrors.js"
import { SIGNATURE_HEADER, signatureHeader } from "../../domain/webhooks/WebhookSignature.js"
import type { StoredEvent } from "../../ports/EventsRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { type AttemptRecord, type DueDelivery, type NewDelivery, WebhookDeliveriesRepository } from "../../ports/WebhookDeliveriesRepository.js"
import { WebhookEndpointsRepository } from "../../ports/WebhookEndpointsRepository.js"
import { type WebhookResponse, WebhookSender } from "../../ports/WebhookSender.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { EventLog } from "../events/EventLog.js"
import { drainLeased, makeLeasedPool } from "../jobs/LeasedDrain.js"
import { makeWriteBatches } from "../jobs/WriteBatches.js"
import { countWith, webhookDeliveriesTotal } from "../observability/ServiceMetrics.js"
import { traced } from "../observability/Traced.js"
import { makeEndpointCircuits } from "./EndpointCircuits.js"
import { WebhookEndpoints } from "./WebhookEndpoints.js"

const encodeEvent = Schema.encodeSync(Event)

/** A lease outlives one attempt (at most 10 s) with room to record it. */
const DELIVERY_LEASE = "30 seconds"

export const USER_AGENT = `PaymentOrchestrator-Webhooks/${API_VERSION}`

/** What an attempt's outcome says in words, for `last_error`; `null` for a 2xx. */
const errorOf = (response: WebhookResponse | undefined): string | null => {
  if (response === undefined) return `No answer within ${Duration.toSeconds(ATTEMPT_TIMEOUT)} seconds.`
  if (response._tag === "Unreachable") return response.reason
  if (response.status >= 200 && response.status < 300) return null
  if (response.status >= 300 && response.status < 400) return `HTTP ${response.status}: redirects are not followed.`
  return `HTTP ${response.status}`
}

/** Which endpoint, of whom: compared by value, as a cache key. */
class ReceiverKey extends Data.Class<{ readonly tenant: Tenant; readonly endpointId: string }> {}

interface Receiver {
  readonly endpoint: Option.Option<WebhookEndpoint>
  readonly secrets: ReadonlyArray<string>
  readonly health: EndpointHealth
}

/**
 * Delivery of events to webhook endpoints: the fan-out of every event to the endpoints subscribed to
 * it (in the outbox's transaction), the signed attempts with their retry schedule, and inspection
 * and resending of deliveries.
 */
export class WebhookDeliveries extends Context.Tag("core/WebhookDeliveries")<WebhookDeliveries, {
  /** The outbox consumer: one delivery per active endpoint subscribed to the event's type. */
  readonly fanOut: EventConsumer
  /** Attempts every delivery that is due, many receivers at once; how many it attempted. */
  readonly deliverDue: Effect.Effect<number>
  readonly list: (tenant: Tenant, filter: DeliveryListFilter, page: PageRequest) => Effect.Effect<
    Page<WebhookDelivery>,
    InvalidCursor
  >
  /** With its attempts. */
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<WebhookDelivery, WebhookDeliveryNotFound>
  /** Back to `pending`, attempted at once, whatever its status. */
  readonly resend: (tenant: Tenant, id: string) => Effect.Effect<WebhookDelivery, WebhookDeliveryNotFound>
  /** `resend` for every delivery the filter matches (by default the exhausted ones); how many. */
  readonly resendMatching: (tenant: Tenant, filter: ResendDeliveries) => Effect.Effect<number>
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.scoped(
    WebhookDeliveries,
    Effect.gen(function*() {
      const deliveries = yield* WebhookDeliveriesRepository
      const endpointsRepository = yield* WebhookEndpointsRepository
      const endpoints = yield* WebhookEndpoints
      const sender = yield* WebhookSender
      const ids = yield* IdGenerator

      const fanOutAll = fanOutEvents({ deliveries, endpointsRepository, ids })

      const fanOut: EventConsumer = {
        name: "webhooks",
        consume: (organizationId, event) => Effect.flatMap(FiberRef.get(CurrentCausingRequest), (cause) => fanOutAll([{ organizationId, event, cause }])),
        consumeAll: fanOutAll
      }

      /** An endpoint as an attempt needs it: where it is, whether it is active, what signs for it, how it fares. */
      const receiverOf = (key: ReceiverKey) =>
        Effect.gen(function*() {
          const endpoint = yield* endpointsRepository.find(key.tenant, key.endpointId)
          const active = Option.isSome(endpoint) && endpoint.value.status === "active"
          return {
            endpoint,
            secrets: active ? yield* endpoints.signingSecrets(key.endpointId) : [],
            health: Option.getOrElse(yield* endpointsRepository.findHealth(key.endpointId), () => HEALTHY)
          }
        })

      /**
       * A pass's deliveries mostly go to a few endpoints: each is read and its secrets opened at most
       * once a second within the pass, not once per delivery. A pass starts with none, so a change to
       * an endpoint (a new URL, disabled) holds for the very next pass, and within a long one after a second.
       */
      const receiversOfPass = Cache.make({ capacity: 10_000, timeToLive: Duration.seconds(1), lookup: receiverOf })

      const attempt = attemptDelivery({ sender, ids })
      const policy = yield* WebhookDeliveryPolicy
      // The workers of the job, shared by its passes: a pass never waits for a receiver that hangs
      // before taking up what is due meanwhile.
      const pool = yield* makeLeasedPool(policy.workers)
      // Attempts that end together are recorded together, in one write; none waits for another.
      const recordAttempt = yield* makeWriteBatches(deliveries.recordAttempts, { max: 64, span: "WebhookDeliveries.recordAttempts" })
      const circuits = yield* makeEndpointCircuits

      const deliverOne = (receivers: Cache.Cache<ReceiverKey, Receiver>) => (leased: Leased<DueDelivery>) =>
        Effect.gen(function*() {
          const { receiver, record, response } = yield* attempt(leased, receivers)
          yield* recordAttempt({ leased, record })
          if (Option.exists(receiver.endpoint, (endpoint) => endpoint.status === "active")) {
            const verdict = verdictOf(response, record.attempt.duration_ms, yield* WebhookDeliveryPolicy)
            yield* circuits.observe(leased.item.tenant, leased.item.endpointId, verdict, receiver.health)
          }
        })

      const deliverDue = Effect.flatMap(receiversOfPass, (receivers) =>
        Effect.flatMap(WebhookDeliveryPolicy, (current) =>
          drainLeased({
            claim: deliveries.claimDue,
            handle: deliverOne(receivers),
            leaseFor: DELIVERY_LEASE,
            // Each attempt ends within its 10 s timeout, on its own; a free worker is used at once.
            concurrency: current.workers,
            pool,
            share: deliveryShare(current),
            pollEvery: "1 second",
            maxPerPass: 10_000
          }))).pipe(traced("WebhookDeliveries.deliverDue"))

      const load = (tenant: Tenant, id: string) =>
        Effect.flatMap(
          deliveries.find(tenant, id),
          Option.match({ onNone: () => Effect.fail(new WebhookDeliveryNotFound({ id })), onSome: Effect.succeed })
        )

      return {
        fanOut,
        deliverDue,
        list: deliveries.list,
        retrieve: load,
        resend: (tenant, id) =>
          Effect.gen(function*() {
            const at = yield* now
            const resent = yield* deliveries.resend(tenant, id, at)
            if (Option.isNone(resent)) return yield* new WebhookDeliveryNotFound({ id })
            yield* circuits.trialNow(resent.value.endpoint_id, at)
            return yield* load(tenant, id)
          }),
        resendMatching: (tenant, { created_after, ...filter }) =>
          Effect.gen(function*() {
            const at = yield* now
            const queued = yield* deliveries.resendMatching(tenant, { ...filter, "created[gte]": created_after ?? filter["created[gte]"] }, at)
            if (queued === 0) return 0
            const endpoints = yield* Effect.orDie(endpointsRepository.list(tenant, { limit: 100, startingAfter: undefined }))
            for (const endpoint of endpoints.data) {
              if (filter.endpoint_id === undefined || filter.endpoint_id === endpoint.id) yield* circuits.trialNow(endpoint.id, at)
            }
            return queued
          }),
        jobs: [{ name: "deliver-webhooks", every: "1 second", run: deliverDue }]
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, WebhookEndpoints.layer, EventLog.layer)))
}

/** What fanning events out to endpoints reads and writes. */
interface FanOutPorts {
  readonly deliveries: Context.Tag.Service<typeof WebhookDeliveriesRepository>
  readonly endpointsRepository: Context.Tag.Service<typeof WebhookEndpointsRepository>
  readonly ids: Context.Tag.Service<typeof IdGenerator>
}

/**
 * One delivery per active endpoint subscribed to each event's type: the endpoints of each tenant
 * read once for the whole batch, the deliveries written in one statement.
 */
const fanOutEvents = ({ deliveries, endpointsRepository, ids }: FanOutPorts) => (batch: ReadonlyArray<StoredEvent>) =>
  Effect.gen(function*() {
    const activeOf = new Map<string, ReadonlyArray<WebhookEndpoint>>()
    const made: Array<NewDelivery> = []
    const at = yield* now
    for (const { cause, event, organizationId } of batch) {
      const tenant = { organizationId, livemode: event.livemode }
      const tenantKey = `${organizationId}/${event.livemode}`
      if (!activeOf.has(tenantKey)) activeOf.set(tenantKey, yield* endpointsRepository.active(tenant))
      const subscribed = activeOf.get(tenantKey)!.filter((endpoint) => subscribesTo(endpoint, event.type))
      if (subscribed.length === 0) continue
      const payload = encodeEvent(event)
      const body = JSON.stringify(payload)
      for (const endpoint of subscribed) {
        made.push({
          tenant,
          payload: body,
          objectId: event.data.object.id,
          eventCreatedAt: event.created_at,
          cause,
          delivery: new WebhookDelivery({
            object: "webhook_delivery",
            id: yield* ids.make("whev"),
            event_id: event.id,
            endpoint_id: endpoint.id,
            type: event.type,
            status: "pending",
            attempt_count: 0,
            last_response_status: null,
            last_error: null,
            next_attempt_at: at,
            delivered_at: null,
            created_at: at,
            livemode: event.livemode,
            payload,
            attempts: null
            // Made of the stored event and values chosen here. A validating constructor rebuilds
            // its validator at every call (about 0.1 ms), and the store encodes the delivery anyway.
          }, true)
        })
      }
    }
    yield* deliveries.insertAll(made)
  })

/** What one attempt uses: the sender, and ids for the attempt it records. */
interface AttemptPorts {
  readonly sender: Context.Tag.Service<typeof WebhookSender>
  readonly ids: Context.Tag.Service<typeof IdGenerator>
}

/**
 * One signed attempt of a leased delivery, and what it makes of the delivery (recorded by the
 * caller), with the receiver as it was read and its answer (`undefined`: none in time).
 */
const attemptDelivery = ({ ids, sender }: AttemptPorts) => (leased: Leased<DueDelivery>, receivers: Cache.Cache<ReceiverKey, Receiver>) =>
  Effect.gen(function*() {
    const due = leased.item
    const receiver = yield* receivers.get(new ReceiverKey({ tenant: Data.struct({ ...due.tenant }), endpointId: due.endpointId }))
    const { endpoint, secrets } = receiver
    const attemptedAt = yield* now
    const started = yield* Clock.currentTimeMillis
    let response: WebhookResponse | undefined
    if (Option.isSome(endpoint) && endpoint.value.status === "active") {
      const body = new TextEncoder().encode(due.payload)
      const signature = yield* signatureHeader(secrets, Math.floor(started / 1000), body)
      response = Option.getOrUndefined(
        yield* sender.send({
          url: endpoint.value.url,
          headers: {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            [SIGNATURE_HEADER]: signature,
            "service-event-id": due.eventId,
            "service-delivery-id": due.deliveryId
          },
          body,
          livemode: due.tenant.livemode
        }).pipe(Effect.timeoutOption(ATTEMPT_TIMEOUT))
      )
    } else {
      response = { _tag: "Unreachable", reason: "The endpoint is disabled; nothing was sent." }
    }
    const duration = (yield* Clock.currentTimeMillis) - started
    const error = errorOf(response)
    const attemptsMade = due.attemptCount + 1
    // A failure is tried again on schedule; one to an endpoint that is disabled waits for a resend.
    const active = Option.exists(endpoint, (found) => found.status === "active")
    const delay = error === null || !active ? undefined : nextDelayMillis(attemptsMade, yield* Random.next)
    const record: AttemptRecord = {
      attempt: new WebhookAttempt({
        object: "webhook_delivery_attempt",
        id: yield* ids.make("whev"),
        attempted_at: attemptedAt,
        response_status: response?._tag === "Answered" ? response.status : null,
        error,
        duration_ms: Math.max(0, duration),
        response_body: response?._tag === "Answered" ? storableText(response.body) : null
        // Values chosen here (see the delivery's above): not validated again.
      }, true),
      status: error === null ? "succeeded" : delay === undefined ? "exhausted" : "pending",
      nextAttemptAt: delay === undefined ? null : DateTime.add(attemptedAt, { millis: delay })
    }
    yield* countWith(webhookDeliveriesTotal, { outcome: record.status === "pending" ? "failed" : record.status })
    yield* Effect.annotateCurrentSpan({
      "webhook.outcome": record.status,
      ...(response?._tag === "Answered" ? { "http.response.status_code": response.status } : {})
    })
    return { leased, record, receiver, response }
  }).pipe(
    // Ids only: never the endpoint's URL (a merchant may put a token in it), the payload or the signature.
    traced("webhook delivery_attempt", () => ({
      // `request.id` and a link to the request whose event this is, when it was served traced.
      links: causeLinks(leased.item.cause),
      attributes: {
        ...causeAttributes(leased.item.cause),
        "webhook.delivery_id": leased.item.deliveryId,
        "webhook.endpoint_id": leased.item.endpointId,
        "webhook.attempt": leased.item.attemptCount + 1,
        "event.id": leased.item.eventId,
        // What the event is about (`pay_…`): the request that made it has it on its PSP span (`payment.id`).
        ...(leased.item.objectId === null ? {} : { "event.object_id": leased.item.objectId }),
        "organization.id": leased.item.tenant.organizationId,
        "organization.livemode": leased.item.tenant.livemode
      }
    }))
  )
