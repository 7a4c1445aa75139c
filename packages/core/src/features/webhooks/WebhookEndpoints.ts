import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { EgressSettings } from "../../domain/egress/EgressPolicy.js"
import type { CreateWebhookEndpoint, UpdateWebhookEndpoint } from "../../domain/events/WebhookEndpointRequests.js"
import { randomBase32 } from "../../domain/Ids.js"
import { RESOURCE_LIMITS, type ResourceLimitExceeded, roomForOneMore } from "../../domain/limits/ResourceLimits.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { openSecret, sealSecret } from "../../domain/tenancy/SealedSecrets.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { endpointUrlProblem } from "../../domain/webhooks/EndpointAddresses.js"
import { HEALTHY } from "../../domain/webhooks/EndpointHealth.js"
import { WebhookEndpoint } from "../../domain/webhooks/WebhookEndpointResource.js"
import { WebhookEndpointNotFound, WebhookUrlNotAllowed } from "../../domain/webhooks/WebhookErrors.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { WebhookEndpointsRepository } from "../../ports/WebhookEndpointsRepository.js"

/** After a rotation the previous secret keeps signing (a second `v1=`) this long. */
export const ROTATION_OVERLAP = Duration.hours(24)

const newSecret = () => `whsec_${randomBase32(32)}`

/** Where a secret is sealed: bound to its endpoint, so it opens nowhere else. */
const ownerOf = (endpointId: string) => `${endpointId}/webhook_signing_secret`

/** Webhook endpoints: where merchants receive events, and the secrets that sign what they receive. */
export class WebhookEndpoints extends Context.Tag("core/WebhookEndpoints")<
  WebhookEndpoints,
  ResourceReads<WebhookEndpoint, WebhookEndpointNotFound> & {
    /** The new endpoint, with its secret: shown this once. */
    readonly create: (
      tenant: Tenant,
      input: CreateWebhookEndpoint
    ) => Effect.Effect<WebhookEndpoint, WebhookUrlNotAllowed | ResourceLimitExceeded>
    readonly update: (
      tenant: Tenant,
      id: string,
      input: UpdateWebhookEndpoint
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound | WebhookUrlNotAllowed>
    /** Deletes the endpoint and its deliveries. */
    readonly remove: (tenant: Tenant, id: string) => Effect.Effect<void, WebhookEndpointNotFound>
    /** A new secret, shown this once; the old one keeps signing beside it for 24 hours. */
    readonly rotateSecret: (tenant: Tenant, id: string) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
    /** The secrets that sign a delivery now: the current one first, then the previous during a rotation. */
    readonly signingSecrets: (endpointId: string) => Effect.Effect<ReadonlyArray<string>>
  }
>() {
  static readonly layer = Layer.effect(
    WebhookEndpoints,
    Effect.gen(function*() {
      const repository = yield* WebhookEndpointsRepository
      const transactions = yield* Transactions
      const organizations = yield* OrganizationsRepository
      const ids = yield* IdGenerator
      const { credentialEncryption: key } = yield* KeyMaterial
      const { privateAddresses } = yield* EgressSettings

      const load = (tenant: Tenant, id: string) =>
        Effect.flatMap(
          repository.find(tenant, id),
          Option.match({ onNone: () => Effect.fail(new WebhookEndpointNotFound({ id })), onSome: Effect.succeed })
        )

      const allowed = (tenant: Tenant, url: string) => {
        const problem = endpointUrlProblem(url, tenant.livemode, privateAddresses)
        return problem === undefined ? Effect.void : Effect.fail(new WebhookUrlNotAllowed({ reason: problem }))
      }

      const open = (endpointId: string, sealed: string) => Effect.orDie(openSecret(key, ownerOf(endpointId), sealed))

      return {
        create: Effect.fn("WebhookEndpoints.create")(function*(tenant: Tenant, input: CreateWebhookEndpoint) {
          yield* allowed(tenant, input.url)
          const createdAt = yield* now
          const endpoint = new WebhookEndpoint({
            object: "webhook_endpoint",
            id: yield* ids.make("whe"),
            url: input.url,
            description: input.description ?? null,
            enabled_events: input.enabled_events ?? [],
            status: "active",
            failing_since: null,
            livemode: tenant.livemode,
            created_at: createdAt,
            updated_at: createdAt
          })
          const secret = newSecret()
          const sealed = yield* sealSecret(key, ownerOf(endpoint.id), secret)
          yield* transactions.run(Effect.gen(function*() {
            // Creations at once wait for each other here, so the last place is taken once.
            yield* organizations.lock(tenant.organizationId)
            const { limit } = RESOURCE_LIMITS.webhook_endpoints
            const existing = yield* Effect.orDie(repository.list(tenant, { limit, startingAfter: undefined }))
            yield* roomForOneMore("webhook_endpoints", existing.data.length)
            yield* repository.insert(tenant, endpoint, { current: sealed, previous: null, previousExpiresAt: null })
          }))
          return new WebhookEndpoint({ ...endpoint, secret })
        }),
        retrieve: load,
        list: repository.list,
        update: Effect.fn("WebhookEndpoints.update")(function*(tenant: Tenant, id: string, input: UpdateWebhookEndpoint) {
          if (input.url !== undefined) yield* allowed(tenant, input.url)
          return yield* transactions.run(Effect.gen(function*() {
            const endpoint = yield* load(tenant, id)
            // Enabled again (after the service disabled it, say): a fresh start, its failures forgotten.
            const enabled = endpoint.status === "disabled" && input.status === "active"
            const updated = new WebhookEndpoint({
              ...endpoint,
              url: input.url ?? endpoint.url,
              enabled_events: input.enabled_events ?? endpoint.enabled_events,
              description: input.description === undefined ? endpoint.description : input.description,
              status: input.status ?? endpoint.status,
              failing_since: enabled ? null : endpoint.failing_since,
              updated_at: yield* now
            })
            yield* repository.update(tenant, updated)
            if (enabled) yield* repository.saveHealth(id, HEALTHY)
            return updated
          }))
        }),
        remove: (tenant, id) =>
          Effect.flatMap(repository.delete(tenant, id), (deleted) => deleted ? Effect.void : Effect.fail(new WebhookEndpointNotFound({ id }))),
        rotateSecret: Effect.fn("WebhookEndpoints.rotateSecret")(function*(tenant: Tenant, id: string) {
          return yield* transactions.run(Effect.gen(function*() {
            const endpoint = yield* load(tenant, id)
            const sealed = Option.getOrThrow(yield* repository.findSecrets(id))
            const secret = newSecret()
            const at = yield* now
            yield* repository.saveSecrets(id, {
              current: yield* sealSecret(key, ownerOf(id), secret),
              previous: sealed.current,
              previousExpiresAt: DateTime.add(at, { millis: Duration.toMillis(ROTATION_OVERLAP) })
            })
            const updated = new WebhookEndpoint({ ...endpoint, updated_at: at })
            yield* repository.update(tenant, updated)
            return new WebhookEndpoint({ ...updated, secret })
          }))
        }),
        signingSecrets: (endpointId) =>
          Effect.gen(function*() {
            const sealed = yield* repository.findSecrets(endpointId)
            if (Option.isNone(sealed)) return []
            const { current, previous, previousExpiresAt } = sealed.value
            const stillSigning = previous !== null && previousExpiresAt !== null &&
              DateTime.lessThan(yield* now, previousExpiresAt)
            return stillSigning
              ? [yield* open(endpointId, current), yield* open(endpointId, previous)]
              : [yield* open(endpointId, current)]
          })
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
