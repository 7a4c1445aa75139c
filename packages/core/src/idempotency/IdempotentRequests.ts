import { Context, Duration, Effect, Exit, Layer, Option } from "effect"
import { type IdPrefix, randomBase32 } from "../domain/Ids.js"
import type { Tenant } from "../domain/Tenant.js"
import { now, plusMillis } from "../domain/Timestamp.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { openSecret, sealSecret } from "../tenancy/SealedSecrets.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused, type IdempotencyRecord, type StoredResponse } from "./IdempotencyKey.js"
import { IdempotencyKeysRepository } from "./IdempotencyKeysRepository.js"
import { IdempotencyScope } from "./IdempotencyScope.js"

export interface IdempotentRequest {
  readonly tenant: Tenant
  readonly key: string
  readonly fingerprint: string
  /**
   * The answer carries a secret shown once (a webhook signing secret): it is stored encrypted, so a
   * retry still gets it and a reader of the database does not.
   */
  readonly sealResponse?: boolean
  /** The operation creates an object of this kind: its id is chosen now and kept with the key. */
  readonly reserveId?: IdPrefix
  /** The request being served (`req_…`): kept with its answer, so a replay can name the request that first got it. */
  readonly requestId?: string
}

const SEALED = "sealed:"

/**
 * A stored body may start with the request that first got it, `request:<id>` and a newline, before
 * the body itself (sealed or not); bodies stored before ids were kept have none.
 */
const FIRST_REQUEST = /^request:([^\n]*)\n/

/** Keys are kept this long at least, then purged. */
export const KEY_RETENTION = Duration.hours(24)

/** How long a running request holds its key; longer than any operation (two PSP calls of 30 s). */
export const KEY_LOCK = Duration.minutes(2)

/**
 * Idempotency of every mutating call. A key runs its operation once; a finished key replays the stored
 * response; a key still running answers 409; a key used for another request answers 422.
 * A 5xx or a crash releases the key without a response, and the next request with it resumes
 * from the object the first one created instead of starting over: the operation runs with its
 * `IdempotencyScope`.
 */
export class IdempotentRequests extends Context.Tag("core/IdempotentRequests")<IdempotentRequests, {
  readonly execute: <R>(
    request: IdempotentRequest,
    operation: Effect.Effect<StoredResponse, never, R>
  ) => Effect.Effect<
    {
      readonly response: StoredResponse
      readonly replayed: boolean
      /** On a replay, the request that first got the answer, when it was kept. */
      readonly originalRequestId?: string
    },
    IdempotencyKeyInUse | IdempotencyKeyReused,
    R
  >
  /** Purges keys past their retention, which no request holds. */
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(
    IdempotentRequests,
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeysRepository
      const ids = yield* IdGenerator
      const { credentialEncryption } = yield* KeyMaterial
      const ownerOf = ({ key, tenant }: IdempotentRequest) => `idempotency/${tenant.organizationId}/${tenant.livemode ? "live" : "test"}/${key}`

      const stored = (request: IdempotentRequest, response: StoredResponse) =>
        Effect.map(
          request.sealResponse === true
            ? Effect.map(sealSecret(credentialEncryption, ownerOf(request), response.body), (sealed) => SEALED + sealed)
            : Effect.succeed(response.body),
          (body) => ({ status: response.status, body: request.requestId === undefined ? body : `request:${request.requestId}\n${body}` })
        )

      const replayed = (request: IdempotentRequest, response: StoredResponse) => {
        const first = FIRST_REQUEST.exec(response.body)
        const body = first === null ? response.body : response.body.slice(first[0].length)
        const originalRequestId = first === null ? {} : { originalRequestId: first[1]! }
        return body.startsWith(SEALED)
          ? openSecret(credentialEncryption, ownerOf(request), body.slice(SEALED.length)).pipe(
            Effect.map((opened) => ({ response: { status: response.status, body: opened }, replayed: true, ...originalRequestId })),
            Effect.orDieWith(() => new Error("a stored idempotent response does not open with this key material"))
          )
          : Effect.succeed({ response: { status: response.status, body }, replayed: true, ...originalRequestId })
      }

      const begin = ({ fingerprint, key, reserveId, tenant }: IdempotentRequest) =>
        Effect.gen(function*() {
          const startedAt = yield* now
          const lockedUntil = plusMillis(startedAt, Duration.toMillis(KEY_LOCK))
          const lockToken = randomBase32(24)
          const reserved = reserveId === undefined ? null : yield* ids.make(reserveId)
          const fresh: IdempotencyRecord = {
            key,
            fingerprint,
            resourceId: reserved,
            response: null,
            lockedUntil,
            lockToken,
            createdAt: startedAt
          }
          const existing = yield* keys.start(tenant, fresh)
          if (Option.isNone(existing)) {
            return { _tag: "Run" as const, lockToken, recovered: Option.none<string>(), reserved: Option.fromNullable(reserved) }
          }
          if (existing.value.fingerprint !== fingerprint) return yield* new IdempotencyKeyReused({ key })
          if (existing.value.response !== null) return { _tag: "Replay" as const, response: existing.value.response }
          const taken = yield* keys.acquire(tenant, key, { now: startedAt, lockedUntil, lockToken })
          if (Option.isNone(taken)) {
            // It may have finished between our two reads.
            const again = yield* keys.start(tenant, fresh)
            if (Option.isSome(again) && again.value.response !== null) {
              return { _tag: "Replay" as const, response: again.value.response }
            }
            return yield* new IdempotencyKeyInUse({ key })
          }
          const recovered = Option.fromNullable(taken.value.resourceId)
          return { _tag: "Run" as const, lockToken, recovered, reserved: reserveId === undefined ? Option.none<string>() : recovered }
        })

      const purge = Effect.gen(function*() {
        const at = yield* now
        return yield* keys.purge({ createdBefore: plusMillis(at, -Duration.toMillis(KEY_RETENTION)), now: at })
      }).pipe(Effect.withSpan("IdempotentRequests.purge"))

      return {
        jobs: [{ name: "purge-idempotency-keys", every: "1 hour", run: purge }],
        execute: (request, operation) =>
          Effect.gen(function*() {
            const start = yield* begin(request)
            if (start._tag === "Replay") return yield* replayed(request, start.response)
            const { lockToken } = start
            const response = yield* operation.pipe(
              Effect.provideService(IdempotencyScope, {
                recovered: start.recovered,
                reserved: start.reserved,
                // A request that stalled past its lock has lost the key to a retry, which creates
                // the object itself: this one must not commit a second, so it ends here.
                attach: (resourceId) =>
                  Effect.flatMap(keys.attach(request.tenant, request.key, lockToken, resourceId), (held) =>
                    held ? Effect.void : Effect.dieMessage(`Idempotency-Key ${request.key} was taken over by a retry`))
              }),
              Effect.onExit((exit) =>
                Exit.isSuccess(exit) && exit.value.status < 500
                  ? Effect.flatMap(stored(request, exit.value), (response) =>
                    keys.complete(request.tenant, request.key, lockToken, response))
                  : keys.release(request.tenant, request.key, lockToken)
              )
            )
            return { response, replayed: false }
          })
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
