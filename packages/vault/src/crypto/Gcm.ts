import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"

const IV_BYTES = 12
const TAG_BYTES = 16

/** AES-256-GCM: `iv ‖ ciphertext ‖ tag`, bound to `aad` (a ciphertext read under other associated data fails). */
export const gcmSeal = (key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()]))
}

/** The plaintext, or `undefined` when the key, the associated data or any bit of the box is not the one sealed. */
export const gcmOpen = (key: Uint8Array, box: Uint8Array, aad: Uint8Array): Uint8Array | undefined => {
  if (box.length < IV_BYTES + TAG_BYTES || key.length !== 32) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, box.subarray(0, IV_BYTES))
    decipher.setAAD(aad)
    decipher.setAuthTag(box.subarray(box.length - TAG_BYTES))
    return new Uint8Array(Buffer.concat([decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)), decipher.final()]))
  } catch {
    return undefined
  }
}

export const randomKey = (): Uint8Array => new Uint8Array(randomBytes(32))
