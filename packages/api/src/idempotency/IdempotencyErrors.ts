import type * as Domain from "@orchestrator/core/idempotency/IdempotencyKey"
import { ApiError, failWith } from "../ApiError.js"

export class IdempotencyKeyInUse extends ApiError<IdempotencyKeyInUse>()("IdempotencyKeyInUse", {
  status: 409,
  type: "idempotency_error",
  codes: ["idempotency_key_in_use"],
  description: "A request with this Idempotency-Key is still running"
}) {
  readonly _tag = "IdempotencyKeyInUse" as const
}

export class IdempotencyKeyReused extends ApiError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  status: 422,
  type: "idempotency_error",
  codes: ["idempotency_key_reused"],
  description: "This Idempotency-Key was used for a different request"
}) {
  readonly _tag = "IdempotencyKeyReused" as const
}

export const idempotencyFailures = {
  IdempotencyKeyInUse: (_: Domain.IdempotencyKeyInUse) =>
    failWith(IdempotencyKeyInUse, {
      message: "A request with this Idempotency-Key is still being processed. Retry in a moment.",
      param: "Idempotency-Key"
    }),
  IdempotencyKeyReused: (_: Domain.IdempotencyKeyReused) =>
    failWith(IdempotencyKeyReused, {
      message: "This Idempotency-Key was used for a different request. Use a new key for a new request.",
      param: "Idempotency-Key"
    })
}
