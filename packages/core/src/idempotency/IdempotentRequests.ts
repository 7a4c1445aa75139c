import { Cause, Context, Duration, Effect, Exit, Layer, Option } from "effect"
import { type IdPrefix, randomBase32 } from "../domain/Ids.js"
import type { Tenant } from "../domain/Tenant.js"
import { now, plusMillis } from "../domain/Timestamp.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused, type IdempotencyRecord, type StoredResponse } from "./IdempotencyKey.js"
import { IdempotencyKeysRepository } from "./IdempotencyKeysRepository.js"
import { IdempotencyScope } from "./IdempotencyScope.js"
import { KeyClaimedElsewhere, type KeyRun, runScope } from "./RunScope.js"
import { storedAnswers } from "./StoredAnswers.js"

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
  /**
   * The key rides along with the operation's own writes (see `KeyRides`): with `reserveId`, it is
   * inserted by the write that creates the object, and it is completed by the write of the record
   * that is the answer, which `render` renders before it is written. A new request's key then costs
   * no statement of its own. Only for an operation whose answer is the record it writes last.
   */
  readonly ride?: { readonly render: (answer: unknown) => StoredResponse }
}

const claimedElsewhere = (cause: Cause.Cause<unknown>) => Option.exists(Cause.dieOption(cause), (defect) => defect instanceof KeyClaimedElsewhere)

/** The key as a request that finds it new writes it: locked by this request, naming its object. */
const freshRecord = (ids: IdGenerator["Type"], { fingerprint, key, reserveId }: IdempotentRequest) =>
  Effect.gen(function*() {
    const startedAt = yield* now
    const record: IdempotencyRecord = {
      key,
      fingerprint,
      resourceId: reserveId === undefined ? null : yield* ids.make(reserveId),
      response: null,
      lockedUntil: plusMillis(startedAt, Duration.toMillis(KEY_LOCK)),
      lockToken: randomBase32(24),
      createdAt: startedAt
    }
    return record
  })

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
      const { replayed, stored } = storedAnswers(credentialEncryption)

      /** `known`: the key was just found written (a first write's claim met it), so it is read, not inserted. */
      const begin = (request: IdempotentRequest, known: boolean) =>
        Effect.gen(function*() {
          const { fingerprint, key, reserveId, tenant } = request
          const fresh = yield* freshRecord(ids, request)
          const startedAt = fresh.createdAt
          const lockedUntil = fresh.lockedUntil!
          const lockToken = fresh.lockToken!
          const reserved = fresh.resourceId
          const existing = known
            ? yield* Effect.flatMap(keys.find(tenant, key), (found) => Option.isSome(found) ? Effect.succeed(found) : keys.start(tenant, fresh))
            : yield* keys.start(tenant, fresh)
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

      const scopeOf = (
        request: IdempotentRequest,
        lockToken: string,
        found: Parameters<typeof runScope>[0]["found"],
        run: KeyRun,
        claim: Option.Option<IdempotencyRecord>
      ) =>
        runScope({
          keys,
          tenant: request.tenant,
          key: request.key,
          lockToken,
          found,
          run,
          claim: Option.map(claim, (record) => ({ record })),
          render: request.ride?.render,
          kept: (response) => stored(request, response)
        })

      /** The key after a run that holds it: completed with the answer (unless a write did), or released for a retry. */
      const settleKey = (request: IdempotentRequest, lockToken: string, run: KeyRun, exit: Exit.Exit<StoredResponse>) =>
        run.answered !== undefined
          ? Effect.void
          : Exit.isSuccess(exit) && exit.value.status < 500
          ? Effect.flatMap(stored(request, exit.value), (response) => keys.complete(request.tenant, request.key, lockToken, response))
          : keys.release(request.tenant, request.key, lockToken)

      /** The key written first (or found), then the operation. */
      const runStarted = <R>(request: IdempotentRequest, operation: Effect.Effect<StoredResponse, never, R>, known = false) =>
        Effect.gen(function*() {
          const start = yield* begin(request, known)
          if (start._tag === "Replay") return yield* replayed(request, start.response)
          const run: KeyRun = { claimed: true, answered: undefined }
          const response = yield* operation.pipe(
            Effect.provideService(IdempotencyScope, scopeOf(request, start.lockToken, start, run, Option.none())),
            Effect.onExit((exit) => settleKey(request, start.lockToken, run, exit))
          )
          // What the key keeps is the answer, always: a replay gives the same.
          return { response: run.answered ?? response, replayed: false }
        })

      /**
       * The operation first, its first write inserting the key: a new key costs nothing of its own.
       * Until that write, the operation has only read, so when the key turns out to exist the request
       * is judged again as a retry, and an answer reached before any write is kept with a new key.
       */
      const runRiding = <R>(request: IdempotentRequest, operation: Effect.Effect<StoredResponse, never, R>) =>
        Effect.gen(function*() {
          const record = yield* freshRecord(ids, request)
          const lockToken = record.lockToken!
          const run: KeyRun = { claimed: false, answered: undefined }
          const found = { recovered: Option.none<string>(), reserved: Option.fromNullable(record.resourceId) }
          const exit = yield* Effect.exit(
            Effect.provideService(operation, IdempotencyScope, scopeOf(request, lockToken, found, run, Option.some(record)))
          )
          if (run.claimed) {
            yield* settleKey(request, lockToken, run, exit)
            return { response: run.answered ?? (yield* exit), replayed: false }
          }
          if (Exit.isFailure(exit)) {
            return claimedElsewhere(exit.cause) ? yield* runStarted(request, operation, true) : yield* Effect.failCause(exit.cause)
          }
          // A 5xx before anything was written leaves no key, as a released one would be.
          if (exit.value.status >= 500) return { response: exit.value, replayed: false }
          const answered: IdempotencyRecord = { ...record, resourceId: null, response: yield* stored(request, exit.value), lockedUntil: null, lockToken: null }
          const existing = yield* keys.start(request.tenant, answered)
          return Option.isNone(existing) ? { response: exit.value, replayed: false } : yield* runStarted(request, operation, true)
        })

      return {
        jobs: [{ name: "purge-idempotency-keys", every: "1 hour", run: purge }],
        execute: (request, operation) =>
          request.ride !== undefined && request.reserveId !== undefined ? runRiding(request, operation) : runStarted(request, operation)
      }
    })
  ).pipe(Layer.provide(IdGenerator.layer))
}
