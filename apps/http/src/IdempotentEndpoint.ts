import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { answering, type ApiErrorShape, CurrentRequestId, encodeApiError, statusOf } from "@orchestrator/api"
import {
  countWith,
  CurrentTenant,
  type EncodedOnce,
  encodedOnceOf,
  fingerprint,
  idempotencyTotal,
  IdempotentRequests,
  type IdPrefix,
  type StoredResponse
} from "@orchestrator/core"
import { Effect, FiberRef, Option, Schema, type SchemaAST as AST } from "effect"

/** What of an endpoint's definition makes up its answers and its idempotency fingerprint. */
interface EndpointDefinition {
  readonly method: string
  readonly path: string
  readonly successSchema: { readonly ast: AST.AST }
  readonly payloadSchema: Option.Option<{ readonly ast: AST.AST }>
}

const toHttpResponse = (response: StoredResponse, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(response.body, { status: response.status, contentType: "application/json", headers })

/** The `request_id` of a stored error body, which names the request that first got it. */
const requestIdIn = (body: string): string | undefined => {
  try {
    const id = JSON.parse(body)?.error?.request_id
    return typeof id === "string" ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * A stored answer replayed to the request being served: its error body names this request (as its
 * `Request-Id` header does), and `Original-Request-Id` the one that first got it (kept with the
 * answer; for answers stored before it was, the id in their error body).
 */
const replay = (response: StoredResponse, requestId: string, kept: string | undefined) => {
  const inBody = response.status >= 400 ? requestIdIn(response.body) : undefined
  const original = kept ?? inBody
  const body = inBody === undefined
    ? response.body
    : response.body.replace(`"request_id":${JSON.stringify(inBody)}`, `"request_id":${JSON.stringify(requestId)}`)
  return toHttpResponse({ ...response, body }, {
    "idempotent-replayed": "true",
    ...(original === undefined ? {} : { "original-request-id": original })
  })
}

const codecs = new WeakMap<EndpointDefinition, {
  readonly successStatus: number
  readonly encodeSuccess: (value: unknown) => unknown
  /** A success whose class is encoded once per instance (a payment): its JSON, made once for its row, events and answer. */
  readonly encodedOnce: EncodedOnce<unknown, unknown> | undefined
  readonly encodePayload: ((payload: unknown) => unknown) | undefined
}>()

/** An endpoint's success status and encoders, made once per endpoint rather than per request. */
const codecOf = (endpoint: EndpointDefinition) => {
  let codec = codecs.get(endpoint)
  if (codec === undefined) {
    codec = {
      successStatus: HttpApiSchema.getStatusSuccessAST(endpoint.successSchema.ast),
      encodeSuccess: Schema.encodeUnknownSync(Schema.make(endpoint.successSchema.ast)),
      encodedOnce: encodedOnceOf(endpoint.successSchema.ast),
      encodePayload: Option.match(endpoint.payloadSchema, {
        onNone: () => undefined,
        onSome: (schema) => Schema.encodeUnknownSync(Schema.make(schema.ast))
      })
    }
    codecs.set(endpoint, codec)
  }
  return codec
}

/**
 * Runs a mutating endpoint under its `Idempotency-Key`: the first run's answer (success or
 * failure) is rendered to the exact status and bytes that leave the server and stored; a retry
 * with the same key and body replays them with `Idempotent-Replayed: true`; 409 while the first
 * is running; 422 for another body. Method, path and the body's canonical form, which make up
 * "the same request", come from the endpoint's own definition. Without a key (optional on some
 * endpoints) the operation simply runs.
 */
export const idempotent = <A, R>(
  endpoint: EndpointDefinition,
  request: {
    readonly key: string | undefined
    readonly path?: Readonly<Record<string, string>>
    readonly payload: unknown
    /** The answer holds a secret shown once: stored encrypted for replays. */
    readonly sealResponse?: boolean
    /** The operation creates an object of this kind, whose id the key holds from the start. */
    readonly reserveId?: IdPrefix
    /**
     * On a replay of a success, the object as it stands now instead of the stored bytes (a payment
     * still `processing` is asked about first); `None` keeps the stored answer. Status and replay
     * headers stay those of the replay.
     */
    readonly refreshReplay?: (stored: unknown) => Effect.Effect<Option.Option<A>, never, R>
    /**
     * The key rides along with the operation's writes (see `KeyRides` in the core): inserted by the
     * write that creates the object (`reserveId`) and completed by the write of the object the
     * answer shows. For an operation whose success is the object it writes last.
     */
    readonly ride?: boolean
  },
  operation: Effect.Effect<A, ApiErrorShape, R>
) =>
  Effect.gen(function*() {
    const { encodedOnce, encodePayload, encodeSuccess, successStatus } = codecOf(endpoint)
    // A success rendered for the key's completion (before it was written) is not rendered again.
    let last: { readonly value: unknown; readonly response: StoredResponse } | undefined
    const render = (value: unknown): StoredResponse => {
      if (last !== undefined && last.value === value) return last.response
      const response = {
        status: successStatus,
        body: encodedOnce === undefined ? JSON.stringify(encodeSuccess(value)) : encodedOnce.json(value)
      }
      last = { value, response }
      return response
    }
    const rendered = operation.pipe(
      Effect.map(render),
      Effect.catchAll((error) => Effect.succeed<StoredResponse>({ status: statusOf(error), body: encodeApiError(error) }))
    )
    if (request.key === undefined) return toHttpResponse(yield* rendered)
    const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => request.path?.[name] ?? "")
    const body = encodePayload === undefined ? null : encodePayload(request.payload)
    const requestId = yield* FiberRef.get(CurrentRequestId)
    const { originalRequestId, replayed, response } = yield* (yield* IdempotentRequests).execute(
      {
        tenant: yield* CurrentTenant,
        requestId,
        key: request.key,
        fingerprint: yield* fingerprint(endpoint.method, path, body),
        sealResponse: request.sealResponse ?? false,
        ...(request.reserveId === undefined ? {} : { reserveId: request.reserveId }),
        ...(request.ride === true ? { ride: { render } } : {})
      },
      rendered
    )
    if (!replayed) return toHttpResponse(response)
    yield* countWith(idempotencyTotal, { outcome: "replayed" })
    const refreshed = request.refreshReplay === undefined || response.status >= 300
      ? Option.none<A>()
      : yield* request.refreshReplay(JSON.parse(response.body))
    return replay(
      Option.match(refreshed, {
        onNone: () => response,
        onSome: (value) => ({ status: response.status, body: JSON.stringify(encodeSuccess(value)) })
      }),
      requestId,
      originalRequestId
    )
  }).pipe(
    Effect.tapErrorTag("IdempotencyKeyInUse", () => countWith(idempotencyTotal, { outcome: "in_use" })),
    Effect.tapErrorTag("IdempotencyKeyReused", () => countWith(idempotencyTotal, { outcome: "reused" })),
    // 409 (still running) and 422 (used for another request) are answers about the key, never stored.
    answering
  )
