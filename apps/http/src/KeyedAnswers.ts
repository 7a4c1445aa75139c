import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { answering, type ApiFailure, CurrentRequestId, FAILURE_KINDS } from "@orchestrator/api"
import {
  type AnswerSpec,
  CurrentTenant,
  type Failing,
  fingerprint,
  IdempotentRequests,
  type KeptAnswer,
  type KeyedAnswer,
  type KeyedRequest,
  noKey,
  type Running,
  type RunOptions
} from "@orchestrator/core"
import { Effect, FiberRef, Option, Schema, type SchemaAST as AST } from "effect"

/**
 * Requests under an `Idempotency-Key`, as HTTP carries them: the core's `IdempotentRequests` runs them
 * and renders their answers; this maps a request to a `KeyedRequest` and an answer to a response.
 */

/** What of an endpoint's definition makes up its answers and the idempotency fingerprint of its requests. */
export interface EndpointDefinition {
  readonly method: string
  readonly path: string
  readonly successSchema: { readonly ast: AST.AST }
  readonly payloadSchema: Option.Option<{ readonly ast: AST.AST }>
}

interface Codec {
  readonly successStatus: number
  readonly encodePayload: ((payload: unknown) => unknown) | undefined
}

const codecs = new WeakMap<EndpointDefinition, Codec>()

/** An endpoint's success status and payload encoder, made once per endpoint rather than per request. */
const codecOf = (endpoint: EndpointDefinition): Codec => {
  let codec = codecs.get(endpoint)
  if (codec === undefined) {
    codec = {
      successStatus: HttpApiSchema.getStatusSuccessAST(endpoint.successSchema.ast),
      encodePayload: Option.match(endpoint.payloadSchema, {
        onNone: () => undefined,
        onSome: (schema) => Schema.encodeUnknownSync(Schema.make(schema.ast))
      })
    }
    codecs.set(endpoint, codec)
  }
  return codec
}

/** The request as its key judges it: the key, and method, path and canonical body (the endpoint's own encoding) as "the same request". */
export const keyedRequest = (endpoint: EndpointDefinition, request: {
  readonly key: string
  readonly path?: Readonly<Record<string, string>>
  readonly payload: unknown
}) =>
  Effect.gen(function*() {
    const { encodePayload } = codecOf(endpoint)
    const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => request.path?.[name] ?? "")
    return {
      tenant: yield* CurrentTenant,
      key: request.key,
      fingerprint: yield* fingerprint(endpoint.method, path, encodePayload === undefined ? null : encodePayload(request.payload)),
      requestId: yield* FiberRef.get(CurrentRequestId)
    } satisfies KeyedRequest
  })

/** The `request_id` of a body kept by an earlier version, which names the request that first got it. */
const requestIdIn = (body: string): string | undefined => {
  try {
    const id = JSON.parse(body)?.error?.request_id
    return typeof id === "string" ? id : undefined
  } catch {
    return undefined
  }
}

/** Status and body of a kept answer, for the request being served (`requestId`, which its error body names). */
const wireOf = (endpoint: EndpointDefinition, answer: KeptAnswer, requestId: string): { readonly status: number; readonly body: string } => {
  switch (answer._tag) {
    case "Succeeded":
      return { status: codecOf(endpoint).successStatus, body: answer.json }
    case "Failed": {
      const { code, message, param, ...concerns } = JSON.parse(answer.json) as Record<string, unknown>
      const { status, type } = FAILURE_KINDS[answer.kind]
      return { status, body: JSON.stringify({ error: { type, code, message, param, request_id: requestId, ...concerns } }) }
    }
    case "Http": {
      const kept = answer.status >= 400 ? requestIdIn(answer.body) : undefined
      const body = kept === undefined ? answer.body : answer.body.replace(`"request_id":${JSON.stringify(kept)}`, `"request_id":${JSON.stringify(requestId)}`)
      return { status: answer.status, body }
    }
  }
}

/**
 * A keyed answer as the response: the endpoint's success status or the failure kind's, its body, and
 * on a replay `Idempotent-Replayed: true` with `Original-Request-Id` naming the request that first got it.
 */
export const keyedResponse = (endpoint: EndpointDefinition, answered: KeyedAnswer) =>
  Effect.map(FiberRef.get(CurrentRequestId), (requestId) => {
    const { body, status } = wireOf(endpoint, answered.answer, requestId)
    const original = answered.originalRequestId ??
      (answered.answer._tag === "Http" && answered.answer.status >= 400 ? requestIdIn(answered.answer.body) : undefined)
    return HttpServerResponse.text(body, {
      status,
      contentType: "application/json",
      headers: answered.replayed
        ? { "idempotent-replayed": "true", ...(original === undefined ? {} : { "original-request-id": original }) }
        : {}
    })
  })

/**
 * A mutating operation, answered: under the request's `Idempotency-Key` when it has one (the core's
 * `IdempotentRequests` runs it, keeps its answer and replays it), else run as it is.
 */
export const underKey = <A, F extends Failing, R>(
  endpoint: EndpointDefinition,
  request: { readonly key: string | undefined; readonly path?: Readonly<Record<string, string>>; readonly payload: unknown },
  spec: Partial<AnswerSpec<A>> & RunOptions,
  operation: (run: Running) => Effect.Effect<A, F, R>
): Effect.Effect<
  A | HttpServerResponse.HttpServerResponse,
  ApiFailure<F["_tag"] | "IdempotencyKeyInUse" | "IdempotencyKeyReused">,
  R | CurrentTenant | IdempotentRequests
> => {
  const { key } = request
  if (key === undefined) return answering(operation(noKey))
  return Effect.gen(function*() {
    const keyed = yield* keyedRequest(endpoint, { ...request, key })
    const schema = spec.schema ?? (Schema.make(endpoint.successSchema.ast) as AnswerSpec<A>["schema"])
    const answered = yield* (yield* IdempotentRequests).run(keyed, { ...spec, schema }, operation)
    return yield* keyedResponse(endpoint, answered)
  }).pipe(answering)
}
