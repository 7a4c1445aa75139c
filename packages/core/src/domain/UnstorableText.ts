import { LONE_SURROGATE } from "./Text.js"

/**
 * Finding text PostgreSQL cannot store (NUL, half a surrogate pair) wherever input carries it: in
 * a parsed JSON document, or percent-encoded in a URL, where the bytes may not even be UTF-8.
 */

/** Whether the database can store `text` as it is. */
export const isStorable = (text: string): boolean => !text.includes("\u0000") && !LONE_SURROGATE.test(text)

/** Where in a JSON value the first unstorable string is: the members leading to it, and whether it is a key. */
export interface UnstorablePlace {
  readonly path: ReadonlyArray<string | number>
  readonly inKey: boolean
}

/**
 * The first string of `value` (a parsed JSON document), key or value, that cannot be stored.
 * For a key, the path leads to the object holding it: the key itself could not be named.
 */
export const findUnstorable = (value: unknown, path: ReadonlyArray<string | number> = []): UnstorablePlace | undefined => {
  if (typeof value === "string") return isStorable(value) ? undefined : { path, inKey: false }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorable(value[index], [...path, index])
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (!isStorable(key)) return { path, inKey: true }
      const found = findUnstorable(member, [...path, key])
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** The dotted name of a place, as error bodies name parameters (`metadata.k`, `items.0`); null for the whole document. */
export const placeName = (path: ReadonlyArray<string | number>): string | null => path.length === 0 ? null : path.join(".")

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })
const HEX = /^[0-9A-Fa-f]{2}$/

/**
 * Percent-decodes one part of a URL (a path segment, a query name or value; `+` is a space in a
 * query) if the result is storable text: the bytes must be UTF-8 (an encoded surrogate such as
 * `%ED%A0%80` is not) and hold no NUL; undefined otherwise. Malformed escapes (`%ZZ`) stay as
 * they are, as URL parsers keep them.
 */
export const decodeUrlPart = (raw: string, plusIsSpace: boolean): string | undefined => {
  const spaced = plusIsSpace ? raw.replace(/\+/g, " ") : raw
  if (!spaced.includes("%")) return isStorable(spaced) ? spaced : undefined
  const bytes: Array<number> = []
  for (let i = 0; i < spaced.length; i++) {
    if (spaced[i] === "%" && HEX.test(spaced.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(spaced.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      const point = spaced.codePointAt(i)!
      bytes.push(...new TextEncoder().encode(String.fromCodePoint(point)))
      if (point > 0xffff) i++
    }
  }
  try {
    const text = strictUtf8.decode(new Uint8Array(bytes))
    return isStorable(text) ? text : undefined
  } catch {
    return undefined
  }
}
