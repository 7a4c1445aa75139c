import type { PspAnswer } from "../FakePspServer.js"
import { multipartUploads } from "../OpenApiContract.js"

/** A file uploaded to the fake (`POST /files`), its bytes as received. */
export interface FakeCheckoutComFile {
  readonly id: string
  readonly purpose: string
  readonly filename: string | undefined
  readonly type: string | undefined
  readonly bytes: Uint8Array
}

/** Checkout.com takes JPG, PNG and PDF files as dispute evidence. */
const TYPES = new Set(["application/pdf", "image/png", "image/jpeg"])

/**
 * `POST /files`: a multipart body with `purpose=dispute_evidence` and the file as the part `file` (the
 * document's example: `file=@/path/receipt.png;type=image/png`); 422 without a body (as the document
 * declares it) for anything else.
 */
export const uploadFile = (files: Map<string, FakeCheckoutComFile>, bytes: Uint8Array, newId: () => string, baseUrl: string): PspAnswer => {
  const parts = multipartUploads(bytes)
  const purpose = parts?.find((part) => part.name === "purpose")
  const file = parts?.find((part) => part.name === "file" && part.filename !== undefined)
  if (purpose === undefined || file === undefined || new TextDecoder().decode(purpose.bytes) !== "dispute_evidence" || !TYPES.has(file.type ?? "")) {
    return [422, undefined]
  }
  const id = newId()
  files.set(id, { id, purpose: "dispute_evidence", filename: file.filename, type: file.type, bytes: file.bytes })
  return [200, { id, _links: { self: { href: `${baseUrl}/files/${id}` } } }]
}
