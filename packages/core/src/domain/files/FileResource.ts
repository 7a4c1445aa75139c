import { Schema } from "effect"
import { field } from "../Field.js"
import { Timestamp } from "../Timestamp.js"

/** What a file is for; dispute evidence is the only use today (Stripe's name for it). */
export const FilePurpose = Schema.Literal("dispute_evidence")
export type FilePurpose = typeof FilePurpose.Type

/** The kinds of file taken, named as Stripe names them; each is recognised by its first bytes, never by its name. */
export const FileType = Schema.Literal("pdf", "png", "jpg")
export type FileType = typeof FileType.Type

/** The media type each kind is served with. */
export const FILE_MEDIA_TYPES: { readonly [Type in FileType]: string } = { pdf: "application/pdf", png: "image/png", jpg: "image/jpeg" }

/** The largest file taken: 5 MiB, what PSPs take as dispute evidence (Stripe's cap for it, Checkout.com's below it per file). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024

/** A file uploaded by the merchant (`file_…`), to be named as evidence of a dispute; its bytes are served only to its organization. */
export class FileResource extends Schema.Class<FileResource>("FileResource")({
  object: field(Schema.Literal("file"), "Always `file`."),
  id: field(Schema.String, "The file's id (`file_…`)."),
  purpose: field(FilePurpose, "What the file is for: `dispute_evidence`."),
  type: field(FileType, "`pdf`, `png` or `jpg`, as read from the file's content (not its name or declared type)."),
  size: field(Schema.Int, "The file's size in bytes."),
  filename: field(Schema.NullOr(Schema.String), "The name the file was uploaded with, without any folder; `null` when it had none."),
  created_at: field(Timestamp, "When the file was uploaded (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for a live-mode file, `false` for a test-mode one.")
}) {}

/** A file as uploaded, before it is checked: the HTTP shell reads it from `multipart/form-data`. */
export interface FileUpload {
  readonly purpose: FilePurpose
  readonly filename: string | null
  readonly contents: Uint8Array
}
