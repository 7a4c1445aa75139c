import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith } from "../ApiError.js"

export const IdempotencyErrors = apiErrors({
  IdempotencyKeyInUse: {
    status: 409,
    type: "idempotency_error",
    codes: ["idempotency_key_in_use"],
    description: "A request with this Idempotency-Key is still running"
  },
  IdempotencyKeyReused: {
    status: 422,
    type: "idempotency_error",
    codes: ["idempotency_key_reused"],
    description: "This Idempotency-Key was used for a different request"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { IdempotencyKeyInUse, IdempotencyKeyReused } = IdempotencyErrors

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
