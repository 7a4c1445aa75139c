/** Every prefix the service hands out: the kind of object an id names. */
export type IdPrefix =
  | "pay"
  | "att"
  | "ref"
  | "evt"
  | "org"
  | "pcn"
  | "key"
  | "req"
  | "whsec"
  | "sub"
  | "plan"
  | "cus"
  | "rule"
  | "whe"
  | "whev"
  | "cs"
  | "in"
  | "psev"
  | "ch"
  | "re"
  | "sbev"
  | "clock"
  | "sbsub"
  | "dp"
  | "pm"
  | "file"

// Crockford base32 keeps ids URL-safe and, because it is ordered like the alphabet, sortable.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

const encodeTime = (millis: number): string => {
  let out = ""
  let rest = Math.max(0, Math.floor(millis))
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out
    rest = Math.floor(rest / 32)
  }
  return out
}

// Random bytes drawn from the system's CSPRNG a page at a time: one call per hundreds of ids, not one each.
const pool = new Uint8Array(4096)
let poolUsed = pool.length
const randomBytes = (length: number): Uint8Array => {
  if (poolUsed + length > pool.length) {
    crypto.getRandomValues(pool)
    poolUsed = 0
  }
  const bytes = pool.slice(poolUsed, poolUsed + length)
  // Each byte is handed out once.
  pool.fill(0, poolUsed, poolUsed + length)
  poolUsed += length
  return bytes
}

/** 20 base32 characters: 100 random bits, above the 96 ids must have to be unguessable. */
export const randomBase32 = (length: number): string => {
  const bytes = randomBytes(length)
  let out = ""
  for (const byte of bytes) out += ALPHABET[byte & 31]
  return out
}

/** `<prefix>_<10 chars of milliseconds><20 random chars>`: time-ordered, opaque, unguessable. */
export const makeId = (prefix: IdPrefix, millis: number): string => `${prefix}_${encodeTime(millis)}${randomBase32(20)}`

/**
 * When an id was made (Unix milliseconds, the real clock's), read back from its time part; `undefined`
 * for a string that is not one of ours. A test clock's objects carry its simulated `created_at`; this is
 * when they were really made.
 */
export const timeOfId = (id: string): number | undefined => {
  const time = /^[a-z]+_([0-9A-HJKMNP-TV-Z]{10})[0-9A-HJKMNP-TV-Z]{20}$/.exec(id)?.[1]
  if (time === undefined) return undefined
  let millis = 0
  for (const char of time) millis = millis * 32 + ALPHABET.indexOf(char)
  return millis
}

const RANDOM_BITS = 100n
const randomPart = (): bigint => {
  let value = 0n
  for (const byte of randomBytes(13)) value = (value << 8n) | BigInt(byte)
  return value & ((1n << RANDOM_BITS) - 1n)
}
const encodeRandom = (value: bigint): string => {
  let out = ""
  for (let i = 0; i < 20; i++) {
    out = ALPHABET[Number(value & 31n)] + out
    value >>= 5n
  }
  return out
}

/**
 * Ids in the order they were made, even within one millisecond: the random part of the next id in
 * the same millisecond is the previous one plus a small random step (as in monotonic ULIDs).
 * Lists and events are ordered by `(created_at, id)`, so this keeps a transaction's events in order.
 */
export const makeMonotonicIds = () => {
  let lastMillis = -1
  let last = 0n
  return (prefix: IdPrefix, millis: number): string => {
    if (millis > lastMillis || last >= (1n << RANDOM_BITS) - (1n << 32n)) {
      lastMillis = Math.max(millis, lastMillis)
      last = randomPart() >> 1n
    } else {
      last += 1n + (randomPart() & 0xffffffn)
    }
    return `${prefix}_${encodeTime(lastMillis)}${encodeRandom(last)}`
  }
}
