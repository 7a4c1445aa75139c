import { IdempotencyKey } from "@orchestrator/core/idempotency/IdempotencyKey"
import { Schema } from "effect"

const description = "Makes the request safe to retry: the same key replays the first response (decisions §7)"

export const RequiredIdempotencyKey = Schema.Struct({
  "idempotency-key": IdempotencyKey.annotations({ description })
})

export const OptionalIdempotencyKey = Schema.Struct({
  "idempotency-key": Schema.optional(IdempotencyKey.annotations({ description }))
})
