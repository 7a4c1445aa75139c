import { makeFetchClient, type OrchestratorClient } from "@orchestrator/client"
import { Effect, Either } from "effect"

export type ApiClient = OrchestratorClient

/** What went wrong, in words a person can act on; `code` is the API's when it gave one. */
export class ActionFailed extends Error {
  constructor(message: string, readonly code: string | undefined, readonly status: number | undefined) {
    super(message)
  }
}

const describe = (failure: unknown): ActionFailed => {
  const body = (failure as { error?: { message?: unknown; code?: unknown } } | null)?.error
  if (typeof body?.message === "string") {
    return new ActionFailed(body.message, typeof body.code === "string" ? body.code : undefined, undefined)
  }
  const tag = (failure as { _tag?: unknown } | null)?._tag
  if (tag === "RequestError") return new ActionFailed("The service could not be reached. Check the connection and try again.", undefined, undefined)
  if (tag === "ResponseError") {
    const status = (failure as { response?: { status?: number } }).response?.status
    return new ActionFailed(`The service answered with an unexpected response (HTTP ${status ?? "?"}).`, undefined, status)
  }
  if (tag === "ParseError") {
    // The typed client checks what it sends against the API's schemas before sending it.
    const detail = String((failure as { message?: unknown }).message ?? "").split("\n").slice(-1)[0]?.trim()
    return new ActionFailed(`Not valid, nothing was sent: ${detail === "" ? "check the fields" : detail}`, "parameter_invalid", undefined)
  }
  return new ActionFailed("The service's answer could not be read.", undefined, undefined)
}

/** Runs one call of the typed client with `key`; fails with an `ActionFailed` that says why. */
export const callApi = async <A>(key: string, call: (client: ApiClient) => Effect.Effect<A, unknown>): Promise<A> => {
  const outcome = await Effect.runPromise(
    makeFetchClient({ baseUrl: location.origin, apiKey: key }).pipe(
      Effect.flatMap(call),
      Effect.mapError(describe),
      Effect.catchAllDefect((defect) => Effect.fail(describe(defect))),
      Effect.either
    )
  )
  // Rejects with the `ActionFailed` itself (not Effect's wrapper), so pages can show its words.
  if (Either.isLeft(outcome)) throw outcome.left
  return outcome.right
}

/** A fresh Idempotency-Key for one confirmed action; a retry of the same action reuses it. */
export const newIdempotencyKey = () => `dashboard-${crypto.randomUUID()}`
