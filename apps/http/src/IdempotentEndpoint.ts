import type { ApiError } from "@orchestrator/api/ApiErrors"
import { fingerprint } from "@orchestrator/core/idempotency/Fingerprint"
import { IdempotentRequests, type IdempotentRun } from "@orchestrator/core/idempotency/IdempotentRequests"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Effect, Option, type Schema } from "effect"
import { errorResponse, fromDomainError } from "./ErrorBodies.js"
import { render, toHttpResponse } from "./Responses.js"

/**
 * Runs a mutating endpoint under its `Idempotency-Key` (decisions §7): first run, replay with
 * `Idempotent-Replayed: true`, 409 while running, 422 for another body. Without a key (optional on
 * some endpoints) the operation simply runs.
 */
export const idempotentEndpoint = <A, I, R>(options: {
  readonly key: string | undefined
  readonly method: string
  readonly path: string
  readonly body: unknown
  readonly success: Schema.Schema<A, I>
  readonly status: number
  readonly run: (run: IdempotentRun) => Effect.Effect<A, ApiError, R>
}) =>
  Effect.gen(function*() {
    const tenant = yield* CurrentTenant
    const toResponse = render(options.success, options.status)
    if (options.key === undefined) {
      return toHttpResponse(yield* toResponse(options.run({ recovered: Option.none(), attach: () => Effect.void })))
    }
    const idempotent = yield* IdempotentRequests
    const request = {
      tenant,
      key: options.key,
      fingerprint: yield* fingerprint(options.method, options.path, options.body)
    }
    return yield* idempotent.execute(request, (run) => toResponse(options.run(run))).pipe(
      Effect.map(({ replayed, response }) =>
        toHttpResponse(response, replayed ? { "idempotent-replayed": "true" } : {})
      ),
      // 409 (still running) and 422 (used for another request) are answers about the key, never stored.
      Effect.catchAll((error) => Effect.map(fromDomainError(error), errorResponse))
    )
  })
