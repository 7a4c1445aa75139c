import type { PspAnswer } from "./FakePspServer.js"
import { multipartUploads } from "./OpenApiContract.js"
import { type FakeStripeContext, stripeErrorAnswer } from "./StripeError.js"

/** A file uploaded to the fake, as Stripe keeps it: its purpose and its bytes. */
export interface StripeFileRecord {
  readonly id: string
  readonly purpose: string
  readonly filename: string | null
  readonly type: string | null
  readonly bytes: Uint8Array
  readonly created: number
}

/** Stripe's file types by media type (what its File object calls `type`). */
const TYPES: Readonly<Record<string, string>> = { "application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg" }

const fileObject = (file: StripeFileRecord) => ({
  id: file.id,
  object: "file",
  created: file.created,
  expires_at: null,
  filename: file.filename,
  links: null,
  purpose: file.purpose,
  size: file.bytes.length,
  title: null,
  type: file.type,
  url: null
})

/**
 * `POST /v1/files` (on Stripe's files host): a multipart body with `purpose` and `file`, the file kept
 * byte for byte. Dispute evidence must be a PDF, PNG or JPEG, as Stripe says.
 */
export const uploadFile = (context: FakeStripeContext, files: Map<string, StripeFileRecord>, bytes: Uint8Array): PspAnswer => {
  const parts = multipartUploads(bytes)
  if (parts === undefined) return stripeErrorAnswer(400, "invalid_request_error", "The request body is not multipart/form-data.")
  const purpose = parts.find((part) => part.name === "purpose")
  const file = parts.find((part) => part.name === "file" && part.filename !== undefined)
  if (purpose === undefined || file === undefined) {
    return stripeErrorAnswer(400, "invalid_request_error", "Missing required param: file and purpose.", { param: file === undefined ? "file" : "purpose" })
  }
  const purposeText = new TextDecoder().decode(purpose.bytes)
  const type = TYPES[file.type ?? ""]
  if (purposeText === "dispute_evidence" && type === undefined) {
    return stripeErrorAnswer(400, "invalid_request_error", "Dispute evidence must be a PDF, JPEG or PNG file.", { param: "file" })
  }
  const record: StripeFileRecord = {
    id: context.newId("file"),
    purpose: purposeText,
    filename: file.filename ?? null,
    type: type ?? null,
    bytes: file.bytes,
    created: context.now()
  }
  files.set(record.id, record)
  return [200, fileObject(record)]
}
