// Verifies the webhooks the payment orchestration service sends. No dependencies: copy this file
// into a project, or depend on the package.
import { createHmac, timingSafeEqual } from "node:crypto"

/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…]`. */
export const SIGNATURE_HEADER = "service-signature"

/** The header that carries the event id: deduplicate on it, the same event may arrive twice. */
export const EVENT_ID_HEADER = "service-event-id"

/** How far the signature's timestamp may be from now, in seconds, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** Why a webhook was not accepted; `reason` is one of the codes below. */
export class WebhookVerificationError extends Error {
  /**
   * @param {"missing_header" | "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" | "invalid_payload"} reason
   * @param {string} message
   */
  constructor(reason, message) {
    super(message)
    this.name = "WebhookVerificationError"
    this.reason = reason
  }
}

const toBuffer = (payload) => {
  if (typeof payload === "string") return Buffer.from(payload, "utf8")
  if (payload instanceof Uint8Array) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
  throw new WebhookVerificationError("invalid_payload", "The payload must be the raw body: a string, Buffer or Uint8Array.")
}

/**
 * Checks that `payload` (the exact raw body, before any JSON parsing) was signed with `secret` (or
 * one of several, while you move to a rotated one) less than `toleranceSeconds` ago, and returns
 * the event it holds. Throws a `WebhookVerificationError` otherwise.
 *
 * @param {string | Uint8Array} payload
 * @param {string | undefined | null} signatureHeader
 * @param {string | ReadonlyArray<string>} secret
 * @param {{ toleranceSeconds?: number, now?: Date | number }} [options]
 */
export const verifyWebhook = (payload, signatureHeader, secret, options = {}) => {
  if (typeof signatureHeader !== "string" || signatureHeader.trim() === "") {
    throw new WebhookVerificationError("missing_header", `No ${SIGNATURE_HEADER} header.`)
  }
  const items = signatureHeader.split(",").map((item) => item.trim())
  const timestamps = items.filter((item) => item.startsWith("t=")).map((item) => item.slice(2))
  const signatures = items.filter((item) => item.startsWith("v1=")).map((item) => item.slice(3))
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]) || signatures.length === 0) {
    throw new WebhookVerificationError("malformed_header", `The ${SIGNATURE_HEADER} header is not t=…,v1=….`)
  }
  const timestamp = Number(timestamps[0])
  const nowMillis = options.now instanceof Date ? options.now.getTime() : (options.now ?? Date.now())
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (Math.abs(Math.floor(nowMillis / 1000) - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `The signature is from ${timestamp}, more than ${tolerance} s away from now.`
    )
  }
  const body = toBuffer(payload)
  const secrets = typeof secret === "string" ? [secret] : [...secret]
  const matches = secrets.some((candidate) => {
    const expected = createHmac("sha256", candidate).update(`${timestamp}.`).update(body).digest()
    return signatures.some((signature) => {
      if (!/^[0-9a-f]+$/i.test(signature) || signature.length !== expected.length * 2) return false
      return timingSafeEqual(Buffer.from(signature, "hex"), expected)
    })
  })
  if (!matches) throw new WebhookVerificationError("signature_mismatch", "No signature matches the secret.")
  try {
    return JSON.parse(body.toString("utf8"))
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The signed body is not JSON.")
  }
}
