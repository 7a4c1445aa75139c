/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…]`. */
export declare const SIGNATURE_HEADER: "service-signature"
/** The header that carries the event id: deduplicate on it, the same event may arrive twice. */
export declare const EVENT_ID_HEADER: "service-event-id"
export declare const DEFAULT_TOLERANCE_SECONDS: 300

export type WebhookVerificationReason =
  | "missing_header"
  | "malformed_header"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch"
  | "invalid_payload"

export declare class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason
  constructor(reason: WebhookVerificationReason, message: string)
}

/** The envelope every event has; `data.object` is the resource as it was at that moment. */
export interface WebhookEvent {
  readonly object: "event"
  readonly id: string
  readonly type: string
  readonly api_version: string
  readonly created_at: string
  readonly livemode: boolean
  readonly data: { readonly object: { readonly object: string; readonly id: string; readonly [field: string]: unknown } }
}

/**
 * Checks that `payload` (the exact raw body, before any JSON parsing) was signed with `secret` (or
 * one of several, while you move to a rotated one) less than `toleranceSeconds` (300) ago, and
 * returns the event. Throws a `WebhookVerificationError` otherwise.
 */
export declare const verifyWebhook: (
  payload: string | Uint8Array,
  signatureHeader: string | undefined | null,
  secret: string | ReadonlyArray<string>,
  options?: { readonly toleranceSeconds?: number; readonly now?: Date | number }
) => WebhookEvent
