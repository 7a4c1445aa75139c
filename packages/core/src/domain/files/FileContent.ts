import { LONE_SURROGATE } from "../Text.js"
import type { FileType } from "./FileResource.js"

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte)

/** `%PDF-` */
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]
/** The PNG signature: 0x89, `PNG`, CR LF, 0x1A, LF. */
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** A JPEG's start-of-image marker followed by the next marker's 0xFF. */
const JPEG = [0xff, 0xd8, 0xff]

/**
 * The file's type read from its first bytes (its magic number), or `undefined` for anything else:
 * a name or a declared Content-Type says nothing about what a file is.
 */
export const fileTypeOf = (bytes: Uint8Array): FileType | undefined =>
  startsWith(bytes, PDF) ? "pdf" : startsWith(bytes, PNG) ? "png" : startsWith(bytes, JPEG) ? "jpg" : undefined

/** The longest file name kept; longer ones are cut. */
const MAX_FILE_NAME = 200

/**
 * The name a file is kept under: the last part of what the client sent (no folder), without control
 * characters or half surrogate pairs, at most 200 characters; `null` when nothing is left.
 */
export const fileNameOf = (raw: string | null | undefined): string | null => {
  if (raw === null || raw === undefined) return null
  const base = raw.split(/[/\\]/).pop() ?? ""
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").replace(new RegExp(LONE_SURROGATE.source, "g"), "").trim()
  const cut = [...clean].slice(0, MAX_FILE_NAME).join("")
  return cut === "" ? null : cut
}
