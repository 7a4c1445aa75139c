import { HttpServerResponse } from "@effect/platform"
import type { ApiError } from "@orchestrator/api/ApiErrors"
import type { StoredResponse } from "@orchestrator/core/idempotency/IdempotencyKey"
import { Effect, Schema } from "effect"
import { encodeError, statusOf } from "./ErrorBodies.js"

/**
 * Renders an operation's outcome, success or error, to the exact status and JSON that leaves the
 * server. Idempotent endpoints store this and replay it byte for byte.
 */
export const render = <A, I>(schema: Schema.Schema<A, I>, status: number) => {
  const encode = Schema.encodeSync(schema)
  return <R>(effect: Effect.Effect<A, ApiError, R>): Effect.Effect<StoredResponse, never, R> =>
    effect.pipe(
      Effect.map((value) => ({ status, body: JSON.stringify(encode(value)) })),
      Effect.catchAll((error) => Effect.succeed({ status: statusOf(error), body: encodeError(error) }))
    )
}

export const toHttpResponse = (response: StoredResponse, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(response.body, { status: response.status, contentType: "application/json", headers })

/** `render` and send: for endpoints that are not idempotent (reads). */
export const respond = <A, I>(schema: Schema.Schema<A, I>, status = 200) => {
  const rendered = render(schema, status)
  return <R>(effect: Effect.Effect<A, ApiError, R>) => Effect.map(rendered(effect), (stored) => toHttpResponse(stored))
}
