import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import { field, FileInvalid, FileNotFound, FilePurpose, FileResource, MAX_FILE_BYTES } from "@orchestrator/core"
import { Option, Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, retrieveById } from "../Endpoints.js"

/**
 * Body of `POST /v1/files`, as Stripe takes it: `multipart/form-data` with the file and its purpose.
 * The handler reads the parts as they stream in, so a file over the cap is refused without being held.
 */
export const UploadFile = HttpApiSchema.MultipartStream(
  Schema.Struct({
    file: field(Multipart.FileSchema, "The file: a PDF, PNG or JPEG of at most 5 MiB, judged by its content (not its name or declared type)."),
    purpose: field(FilePurpose, "What the file is for: `dispute_evidence`.")
  }).annotations({ identifier: "UploadFile" }),
  // The parser counts a little of the closing boundary into the part: the exact cap is checked on the bytes read.
  { maxFileSize: Option.some(MAX_FILE_BYTES + 1024), maxParts: Option.some(8), maxFieldSize: 1024 }
)

/** The media types `GET /v1/files/{id}/contents` answers with, one per file type. */
const CONTENT_TYPES = ["application/pdf", "image/png", "image/jpeg"]

/** The contents' answer in the document: the bytes, in the media type of the file's `type`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the operation is walked as the JSON it is
const asFileContents = (operation: Record<string, any>) => {
  const ok = operation.responses?.["200"]
  if (ok !== undefined) {
    ok.description = "The file's bytes, with `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`."
    ok.content = Object.fromEntries(CONTENT_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]))
  }
  return operation
}

export class FilesApi extends HttpApiGroup.make("files")
  .add(
    HttpApiEndpoint.post("create", "/files")
      .setPayload(UploadFile)
      .addSuccess(FileResource, { status: 201 })
      .addError(apiErrorOf(FileInvalid))
      .annotate(OpenApi.Summary, "Upload a file")
      .annotate(
        OpenApi.Description,
        "Stores a file to give as dispute evidence (`purpose=dispute_evidence`), sent as `multipart/form-data` with the " +
          "parts `file` and `purpose`. PDF, PNG and JPEG only, recognised by their first bytes: a file of another kind is " +
          "refused (400 `file_type_invalid`) whatever its name or declared type, an empty one too (400 `file_empty`), and a " +
          "body over 5 MiB answers 413. No Idempotency-Key: uploading twice stores two files."
      )
  )
  .add(
    retrieveById("/files/:id", FileResource, FileNotFound, "Retrieve a file")
      .annotate(OpenApi.Description, "The file's type, size, name and purpose; its bytes are at `/v1/files/{id}/contents`.")
  )
  .add(
    HttpApiEndpoint.get("contents", "/files/:id/contents")
      .setPath(ById)
      .addSuccess(HttpApiSchema.Uint8Array())
      .addError(apiErrorOf(FileNotFound))
      .annotate(OpenApi.Summary, "Download a file's contents")
      .annotate(
        OpenApi.Description,
        "The file's bytes as uploaded, in its media type (`application/pdf`, `image/png` or `image/jpeg`), as an attachment " +
          "named after the file. Only for the organization and mode that uploaded it: another key answers 404."
      )
      .annotate(OpenApi.Transform, asFileContents)
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Files")
  .annotate(
    OpenApi.Description,
    "Files you upload to answer disputes with: name a file's id in a dispute's evidence. A file is seen only by the " +
      "organization and mode that uploaded it. See the guide at /docs/guides/disputes."
  )
{}
