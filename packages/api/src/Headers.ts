import { IdempotencyKey } from "@orchestrator/core"
import { Schema } from "effect"

const description = "Makes the request safe to retry: the same key with the same body replays the first response, with " +
  "`Idempotent-Replayed: true`; the same key with another body answers 422. Keys are kept 24 hours."

export const RequiredIdempotencyKey = Schema.Struct({
  "idempotency-key": IdempotencyKey.annotations({ description })
})

export const OptionalIdempotencyKey = Schema.Struct({
  "idempotency-key": Schema.optional(IdempotencyKey.annotations({ description }))
})
