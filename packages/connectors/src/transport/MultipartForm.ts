import { DisputeActionOutcome, type EvidenceFileContents, FILE_MEDIA_TYPES } from "@orchestrator/core"

/** A part of a multipart/form-data body: a text field (with its media type when not plain text), or a file with its name, media type and bytes. */
export type MultipartField =
  | { readonly name: string; readonly value: string; readonly type?: string }
  | { readonly name: string; readonly filename: string; readonly type: string; readonly contents: Uint8Array }

/** A multipart/form-data body, encoded, with the content type that names its boundary. */
export interface MultipartBody {
  readonly body: Uint8Array
  readonly contentType: string
}

/** A name or file name inside a quoted `Content-Disposition` parameter: no quote, no line break can end it early. */
const quoted = (text: string) => text.replace(/["\r\n\\]/g, "_")

/**
 * Encodes `fields` as multipart/form-data (RFC 7578), as PSPs take file uploads. The boundary is
 * `boundary` when given, so that a request sent again under the same idempotency key is the same
 * bytes; it must be one the contents cannot hold (a digest of them serves).
 */
export const encodeMultipart = (fields: ReadonlyArray<MultipartField>, boundary: string): MultipartBody => {
  const encoder = new TextEncoder()
  const chunks: Array<Uint8Array> = []
  for (const field of fields) {
    const head = "contents" in field
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(field.name)}"; filename="${
        quoted(field.filename)
      }"\r\nContent-Type: ${field.type}\r\n\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(field.name)}"\r\n${
        field.type === undefined ? "" : `Content-Type: ${field.type}\r\n`
      }\r\n`
    chunks.push(encoder.encode(head), "contents" in field ? field.contents : encoder.encode(field.value), encoder.encode("\r\n"))
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`))
  const body = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.length
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/**
 * A boundary for a body holding `contents`, the same each time for the same `id` (an idempotent
 * retry sends the same bytes), unless the contents happen to hold it.
 */
export const boundaryFor = (id: string, contents: ReadonlyArray<Uint8Array>) => {
  const fixed = `----orchestrator-${id.replace(/[^A-Za-z0-9_-]/g, "")}`
  const decoder = new TextDecoder("latin1")
  return contents.some((each) => decoder.decode(each).includes(fixed)) ? `${fixed}-${globalThis.crypto.randomUUID()}` : fixed
}

/**
 * An evidence file as the part `name` of an upload, under the name it was uploaded with (else its
 * id) and the media type its content was read as.
 */
export const evidenceFilePart = (name: string, { contents, file }: EvidenceFileContents): MultipartField => ({
  name,
  filename: file.filename ?? `${file.id}.${file.type}`,
  type: FILE_MEDIA_TYPES[file.type],
  contents
})

/** A PSP refused to take an evidence file: said in our words, naming the file; what the PSP said kept apart. */
export const evidenceFileRefused = ({ field, file }: EvidenceFileContents, providerMessage: string | undefined) =>
  DisputeActionOutcome.Refused({
    code: "evidence_file_refused",
    message: `The provider refused the evidence file ${file.id} (given as ${field}): replace or remove it, then submit again. Nothing was submitted.`,
    providerMessage
  })

/**
 * A PSP refused a request holding several evidence files without saying which: in our words, naming
 * each (one file: `evidenceFileRefused`); the request was refused whole, so nothing was submitted.
 */
export const evidenceFilesRefused = (files: ReadonlyArray<EvidenceFileContents>, providerMessage: string | undefined) =>
  files.length === 1
    ? evidenceFileRefused(files[0]!, providerMessage)
    : DisputeActionOutcome.Refused({
      code: "evidence_file_refused",
      message: `The provider refused one of the evidence files ${
        files.map(({ field, file }) => `${file.id} (given as ${field})`).join(", ")
      }: replace or remove it, then submit again. Nothing was submitted.`,
      providerMessage
    })
