import { sha256 } from "./Sha256.js"

const BLOCK = 64

/**
 * HMAC-SHA-256 (RFC 2104) of `message` under the raw `key`, computed synchronously on the core's own
 * SHA-256: for a signature made on every payment (its return URL's token), where Web Crypto's `sign`
 * would cost a job on another thread and a promise.
 */
export const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array => {
  const block = new Uint8Array(BLOCK)
  block.set(key.length > BLOCK ? sha256(key) : key)
  const inner = new Uint8Array(BLOCK + message.length)
  const outer = new Uint8Array(BLOCK + 32)
  for (let index = 0; index < BLOCK; index++) {
    inner[index] = block[index]! ^ 0x36
    outer[index] = block[index]! ^ 0x5c
  }
  inner.set(message, BLOCK)
  outer.set(sha256(inner), BLOCK)
  return sha256(outer)
}

/** Equal-length strings compared without an early exit, so timing says nothing about the content. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
