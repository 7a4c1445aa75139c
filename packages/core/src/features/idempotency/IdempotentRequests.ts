import { Cause, Context, Duration, Effect, Exit, Layer, Option, Schema } from "effect"
import { encodedOnceOf, encodedOnceOfValue } from "../../domain/EncodedOnce.js"
import { type Failing, failureBodyOf, failureClassOf, type FailureKind, isFailing, transientKinds } from "../../domain/Failure.js"
import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  type IdempotencyRecord,
  type KeptAnswer,
  type StoredAnswer
} from "../../domain/idempotency/IdempotencyKey.js"
import type {
  AnswerSpec,
  Completed,
  KeyedAnswer,
  KeyedRequest,
  KeyRun,
  Replay,
  RidingCompletion,
  Running,
  RunOptions
} from "../../domain/idempotency/KeyRun.js"
import { type IdPrefix, randomBase32 } from "../../domain/Ids.js"
import { openSecret, sealSecret } from "../../domain/tenancy/SealedSecrets.js"
import { now, plusMillis } from "../../domain/Timestamp.js"
import { IdempotencyKeysRepository } from "../../ports/IdempotencyKeysRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { countWith, idempotencyTotal } from "../observability/ServiceMetrics.js"
import { traced } from "../observability/Traced.js"

/** Keys are kept this long at least, then purged. */
export const KEY_RETENTION = Duration.hours(24)

/** How long a running request holds its key; longer than any operation (two PSP calls of 30 s). */
export const KEY_LOCK = Duration.minutes(2)

type KeyRefused = IdempotencyKeyInUse | IdempotencyKeyReused

/**
 * Idempotency of every mutating call, one layer that a request enters once (`begin`) and leaves once
 * (`finish`), or both in one (`run`). A key runs its operation once; a finished key replays the kept
 * answer; a key still running is refused (in use); a key used for another request is refused (reused).
 * A defect (a crash, the database away) releases the key without an answer, and the next request with
 * it resumes from the object the first one created (`Running.recovered`) instead of starting over.
 * The answer is rendered here, from the operation's result: the transport only maps it to its wire.
 */
export class IdempotentRequests extends Context.Tag("core/IdempotentRequests")<IdempotentRequests, {
  /** Where a request stands with its key: running (held by this request, or to be claimed by its first write), or a replay. */
  readonly begin: (request: KeyedRequest, options?: RunOptions) => Effect.Effect<Running | Replay, KeyRefused>
  /**
   * When the first write that carried the key's insert (`Running.pending`) found the key written by
   * another request: this one judged again, as a retry of that one. (When it made the insert, the run
   * holds the key: `heldBy`.)
   */
  readonly claimed: (run: Running, options?: RunOptions) => Effect.Effect<Running | Replay, KeyRefused>
  /**
   * Links the object the operation creates to the key, in the operation's transaction. A request that
   * stalled past its lock has lost the key to a retry, which creates the object itself: this one must
   * not commit a second, so it ends there (a defect, rolling its transaction back).
   */
  readonly attach: (run: Running, resourceId: string) => Effect.Effect<void>
  /** The key's completion with `value` as the answer, for the write that writes `value` to carry (none without a held key). */
  readonly completion: <A>(run: Running, spec: AnswerSpec<A>, value: A) => Effect.Effect<RidingCompletion | undefined>
  /** After a write that carried `completion`: the key is complete when the write was made. */
  readonly completed: (run: Running, completion: RidingCompletion | undefined, written: boolean) => Running | Completed
  /**
   * The end of a run: the answer (a success or a service's failure) rendered, kept unless a write kept
   * it already, and given; a defect releases the key and goes on.
   */
  readonly finish: <A>(run: KeyRun, spec: AnswerSpec<A>, exit: Exit.Exit<A, Failing>) => Effect.Effect<KeyedAnswer, KeyRefused>
  /** `begin`, the operation, `finish`: an operation under its key. */
  readonly run: <A, F extends Failing, R>(
    request: KeyedRequest,
    spec: AnswerSpec<A> & RunOptions,
    operation: (run: Running) => Effect.Effect<A, F, R>
  ) => Effect.Effect<KeyedAnswer, KeyRefused, R>
  /** Purges keys past their retention, which no request holds. */
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(IdempotentRequests, Effect.suspend(() => make)).pipe(Layer.provide(IdGenerator.layer))
}

const SEALED = "sealed:"

/** A body may start with the request that first got it; bodies kept before ids were have none. */
const FIRST_REQUEST = /^request:([^\n]*)\n/

/** The JSON of a success, in its schema: made once per instance for a class that is `encodedOnce` (a payment). */
const successJson = <A>(spec: AnswerSpec<A>, value: A): string => {
  const once = encodedOnceOf(spec.schema.ast)
  return once === undefined ? JSON.stringify(Schema.encodeSync(spec.schema)(value)) : once.json(value)
}

/** The JSON of an object a failure shows (a declined payment), in its own class's schema. */
const concernedJson = (concerns: { readonly object: string }): unknown => {
  const once = encodedOnceOfValue(concerns)
  if (once !== undefined) return once.encode(concerns)
  return Schema.encodeSync(concerns.constructor as unknown as Schema.Schema<unknown, unknown>)(concerns)
}

/** A success's answer, rendered. */
export const succeededAnswer = <A>(spec: AnswerSpec<A>, value: A): KeptAnswer => ({ _tag: "Succeeded", json: successJson(spec, value) })

/** What a request answered, rendered: its result's JSON, or its failure's. */
export const keptAnswerOf = <A>(spec: AnswerSpec<A>, result: Exit.Exit<A, Failing>): Option.Option<KeptAnswer> => {
  if (Exit.isSuccess(result)) return Option.some(succeededAnswer(spec, result.value))
  const failure = Cause.failureOption(result.cause)
  if (Option.isNone(failure) || !isFailing(failure.value)) return Option.none()
  const { code, concerns, message, param } = failureBodyOf(failure.value)
  const { kind, tag } = failureClassOf(failure.value).failure
  const json = JSON.stringify({ code, message, param, ...(concerns === undefined ? {} : { [concerns.object]: concernedJson(concerns) }) })
  return Option.some({ _tag: "Failed", kind, tag, json })
}

const outcomeOf = (answer: KeptAnswer): string =>
  answer._tag === "Succeeded" ? "succeeded" : answer._tag === "Failed" ? `failed:${answer.kind}:${answer.tag}` : `http:${answer.status}`

const keptOf = (outcome: string, text: string): KeptAnswer => {
  if (outcome === "succeeded") return { _tag: "Succeeded", json: text }
  const [form, kind, tag] = outcome.split(":")
  return form === "failed" ? { _tag: "Failed", kind: kind as FailureKind, tag: tag!, json: text } : { _tag: "Http", status: Number(kind), body: text }
}

const ownerOf = ({ key, tenant }: KeyedRequest) => `idempotency/${tenant.organizationId}/${tenant.livemode ? "live" : "test"}/${key}`

/** The answer as the key keeps it: naming its request, sealed (with `sealing`) when it shows a secret. */
const stored = (sealing: CryptoKey, request: KeyedRequest, spec: { readonly sealed?: boolean }, answer: KeptAnswer) =>
  Effect.gen(function*() {
    const text = answer._tag === "Http" ? answer.body : answer.json
    const body = spec.sealed === true ? SEALED + (yield* sealSecret(sealing, ownerOf(request), text)) : text
    return { outcome: outcomeOf(answer), body: request.requestId === null ? body : `request:${request.requestId}\n${body}` } satisfies StoredAnswer
  })

/** A kept answer, replayed: opened, with the request that first got it. */
const replayOf = (sealing: CryptoKey, request: KeyedRequest, answer: StoredAnswer) =>
  Effect.gen(function*() {
    const first = FIRST_REQUEST.exec(answer.body)
    const body = first === null ? answer.body : answer.body.slice(first[0].length)
    const text = body.startsWith(SEALED)
      ? yield* openSecret(sealing, ownerOf(request), body.slice(SEALED.length)).pipe(
        Effect.orDieWith(() => new Error("a kept idempotent answer does not open with this key material"))
      )
      : body
    yield* countWith(idempotencyTotal, { outcome: "replayed" })
    const replay: Replay = {
      _tag: "Replay",
      answer: { answer: keptOf(answer.outcome, text), replayed: true, originalRequestId: first === null ? null : first[1]! }
    }
    return replay
  })

/** The key as a request that finds it new writes it: locked by this request, naming its object. */
const freshRecord = (ids: IdGenerator["Type"], request: KeyedRequest, reserve: IdPrefix | undefined) =>
  Effect.gen(function*() {
    const startedAt = yield* now
    return {
      key: request.key,
      fingerprint: request.fingerprint,
      resourceId: reserve === undefined ? null : yield* ids.make(reserve),
      answer: null,
      lockedUntil: plusMillis(startedAt, Duration.toMillis(KEY_LOCK)),
      lockToken: randomBase32(24),
      createdAt: startedAt
    } satisfies IdempotencyRecord
  })

/** A refusal of the key, counted. */
const refused = (error: KeyRefused) =>
  Effect.zipRight(countWith(idempotencyTotal, { outcome: error._tag === "IdempotencyKeyInUse" ? "in_use" : "reused" }), Effect.fail(error))

const make = Effect.gen(function*() {
  const keys = yield* IdempotencyKeysRepository
  const ids = yield* IdGenerator
  const { credentialEncryption } = yield* KeyMaterial

  /** The request judged against the key as stored (`found`), after writing it if it was not. */
  const judge = (request: KeyedRequest, options: RunOptions, found: Option.Option<IdempotencyRecord>) =>
    Effect.gen(function*() {
      const fresh = yield* freshRecord(ids, request, options.reserve)
      const existing = Option.isSome(found) ? found : yield* keys.start(request.tenant, fresh)
      const running = (recovered: string | null): Running => ({
        _tag: "Running",
        request,
        lockToken: fresh.lockToken,
        pending: null,
        reserved: options.reserve === undefined ? null : recovered ?? fresh.resourceId,
        recovered
      })
      if (Option.isNone(existing)) return running(null)
      if (existing.value.fingerprint !== request.fingerprint) return yield* refused(new IdempotencyKeyReused({ key: request.key }))
      if (existing.value.answer !== null) return yield* replayOf(credentialEncryption, request, existing.value.answer)
      const taken = yield* keys.acquire(request.tenant, request.key, { now: fresh.createdAt, lockedUntil: fresh.lockedUntil, lockToken: fresh.lockToken })
      if (Option.isSome(taken)) return running(taken.value.resourceId)
      // It may have finished between our two reads.
      const again = yield* keys.find(request.tenant, request.key)
      if (Option.isSome(again) && again.value.answer !== null) return yield* replayOf(credentialEncryption, request, again.value.answer)
      return yield* refused(new IdempotencyKeyInUse({ key: request.key }))
    })

  const begin = (request: KeyedRequest, options: RunOptions = {}) =>
    options.rides === true
      ? Effect.map(freshRecord(ids, request, options.reserve), (record): Running => ({
        _tag: "Running",
        request,
        lockToken: record.lockToken!,
        pending: record,
        reserved: record.resourceId,
        recovered: null
      }))
      : judge(request, options, Option.none())

  const claimed = (run: Running, options: RunOptions = {}): Effect.Effect<Running | Replay, KeyRefused> =>
    run.request === null
      ? Effect.succeed(run)
      : Effect.flatMap(keys.find(run.request.tenant, run.request.key), (found) => judge(run.request!, options, found))

  const attach = (run: Running, resourceId: string) =>
    run.request === null
      ? Effect.void
      : Effect.flatMap(keys.attach(run.request.tenant, run.request.key, run.lockToken, resourceId), (held) =>
        held ? Effect.void : Effect.dieMessage(`Idempotency-Key ${run.request!.key} was taken over by a retry`))

  const completion = <A>(run: Running, spec: AnswerSpec<A>, value: A): Effect.Effect<RidingCompletion | undefined> => {
    const { request } = run
    if (request === null || run.pending !== null) return Effect.succeed(undefined)
    const kept = succeededAnswer(spec, value)
    return Effect.map(stored(credentialEncryption, request, spec, kept), (answer) => ({ write: { key: request.key, lockToken: run.lockToken, answer }, kept }))
  }

  const completed = (run: Running, riding: RidingCompletion | undefined, written: boolean): Running | Completed =>
    riding !== undefined && written ? { _tag: "Completed", answer: riding.kept } : run

  const finish = <A>(run: KeyRun, spec: AnswerSpec<A>, exit: Exit.Exit<A, Failing>): Effect.Effect<KeyedAnswer, KeyRefused> =>
    Effect.gen(function*() {
      switch (run._tag) {
        case "Replay":
          return run.answer
        case "Completed":
          return { answer: run.answer, replayed: false, originalRequestId: null }
      }
      const { request } = run
      const kept = keptAnswerOf(spec, exit)
      if (request === null) return yield* Effect.dieMessage("a run without a key has no answer to keep")
      if (Option.isNone(kept)) {
        // A defect or an interruption (no service's failure in it): nothing is kept, and a retry
        // resumes from what this run created.
        if (run.pending === null) yield* keys.release(request.tenant, request.key, run.lockToken)
        return yield* Effect.failCause(Exit.isFailure(exit) ? exit.cause as Cause.Cause<never> : Cause.empty)
      }
      if (kept.value._tag === "Failed" && transientKinds.has(kept.value.kind)) {
        // Nothing happened that a retry should not try again: the answer is given, the key released.
        if (run.pending === null) yield* keys.release(request.tenant, request.key, run.lockToken)
        return { answer: kept.value, replayed: false, originalRequestId: null }
      }
      const answer = yield* stored(credentialEncryption, request, spec, kept.value)
      if (run.pending === null) {
        yield* keys.complete(request.tenant, request.key, run.lockToken, answer)
        return { answer: kept.value, replayed: false, originalRequestId: null }
      }
      // Answered before any write: the key is written with its answer, unless another request wrote it
      // meanwhile; then this request is a retry of that one.
      const existing = yield* keys.start(request.tenant, { ...run.pending, resourceId: null, answer, lockedUntil: null, lockToken: null })
      if (Option.isNone(existing)) return { answer: kept.value, replayed: false, originalRequestId: null }
      if (existing.value.fingerprint !== request.fingerprint) return yield* refused(new IdempotencyKeyReused({ key: request.key }))
      if (existing.value.answer !== null) return (yield* replayOf(credentialEncryption, request, existing.value.answer)).answer
      return yield* refused(new IdempotencyKeyInUse({ key: request.key }))
    })

  const purge = Effect.gen(function*() {
    const at = yield* now
    return yield* keys.purge({ createdBefore: plusMillis(at, -Duration.toMillis(KEY_RETENTION)), now: at })
  }).pipe(traced("IdempotentRequests.purge"))

  return IdempotentRequests.of({
    begin,
    claimed,
    attach,
    completion,
    completed,
    finish,
    run: (request, spec, operation) =>
      Effect.gen(function*() {
        const run = yield* begin(request, spec)
        if (run._tag === "Replay") return run.answer
        return yield* finish(run, spec, yield* Effect.exit(operation(run)))
      }),
    jobs: [{ name: "purge-idempotency-keys", every: "1 hour", run: purge }]
  })
})
