import { Data } from "effect"

export class WebhookEndpointNotFound extends Data.TaggedError("WebhookEndpointNotFound")<{ readonly id: string }> {}

export class WebhookDeliveryNotFound extends Data.TaggedError("WebhookDeliveryNotFound")<{ readonly id: string }> {}

/** A URL this endpoint's mode does not allow (live mode: https to a public host only). */
export class WebhookUrlNotAllowed extends Data.TaggedError("WebhookUrlNotAllowed")<{ readonly reason: string }> {}
