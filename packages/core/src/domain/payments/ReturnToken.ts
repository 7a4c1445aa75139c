import { Clock, Effect } from "effect"
import { constantTimeEqual, hmacSha256 } from "../HmacSha256.js"
import type { Tenant } from "../Tenant.js"

/** The query parameter of our return URL that carries the token. */
export const RETURN_TOKEN_PARAM = "token"

/**
 * How long after the payment's creation its return URL works: twice the default 3DS lifetime (a
 * day), so a challenge that starts late (a send reconciled hours later) still has its way back.
 */
export const RETURN_TOKEN_LIFETIME_SECONDS = 48 * 60 * 60

const encoder = new TextEncoder()

const toBase64Url = (bytes: Uint8Array) =>
  btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")

/** Expiry in Unix seconds, a dot, then the HMAC-SHA-256 in base64url (43 characters). */
const FORMAT = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/

const mac = (key: Uint8Array, paymentId: string, tenant: Tenant, expiresAt: number) =>
  Effect.sync(() =>
    toBase64Url(hmacSha256(
      key,
      encoder.encode(
        ["payment-return v1", paymentId, tenant.organizationId, tenant.livemode ? "live" : "test", String(expiresAt)]
          .join("\n")
      )
    ))
  )

/** The token for a payment's return URL that expires at `expiresAt` (Unix seconds). */
export const signReturnToken = (key: Uint8Array, paymentId: string, tenant: Tenant, expiresAt: number) =>
  Effect.map(mac(key, paymentId, tenant, expiresAt), (signature) => `${expiresAt}.${signature}`)

/**
 * The token a payment's return URL carries. A pure function of the payment (no clock): a send
 * repeated under the same PSP idempotency key must repeat the same URL, or the PSP refuses it
 * as other parameters under a used key (Stripe does).
 */
export const returnTokenFor = (key: Uint8Array, paymentId: string, tenant: Tenant, createdAtMillis: number) =>
  signReturnToken(key, paymentId, tenant, Math.floor(createdAtMillis / 1000) + RETURN_TOKEN_LIFETIME_SECONDS)

/** What a token claims before its signature is checked: when it expires. */
export interface ReturnTokenClaim {
  readonly expiresAt: number
  readonly signature: string
}

/** A token in our format that has not expired by the clock; checking its signature needs the tenant. */
export const unexpiredClaim = (token: string | undefined) =>
  Effect.map(Clock.currentTimeMillis, (nowMillis): ReturnTokenClaim | null => {
    const match = token === undefined ? null : FORMAT.exec(token)
    if (match === null) return null
    const expiresAt = Number(match[1])
    return nowMillis < expiresAt * 1000 ? { expiresAt, signature: match[2]! } : null
  })

/** Whether the claim was signed by us for this payment of this tenant, compared in constant time. */
export const claimSignedFor = (key: Uint8Array, claim: ReturnTokenClaim, paymentId: string, tenant: Tenant) =>
  Effect.map(mac(key, paymentId, tenant, claim.expiresAt), (expected) => constantTimeEqual(expected, claim.signature))
