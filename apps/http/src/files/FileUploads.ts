import { type HttpServerRequest, Multipart } from "@effect/platform"
import { failWith, InvalidRequest, PayloadTooLarge } from "@orchestrator/api"
import { echoed, fileNameOf, FilePurpose, type FileUpload, MAX_FILE_BYTES } from "@orchestrator/core"
import { Effect, Option, Schema, Stream } from "effect"

/** The body limit of a file upload: the largest file and room for the form's other parts and boundaries. */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024

/** `POST /v1/files`: its body is `multipart/form-data`, read by its handler as it streams in, never as JSON. */
export const isFileUpload = (request: HttpServerRequest.HttpServerRequest) => request.method === "POST" && request.url.split("?")[0] === "/v1/files"

const FORM = "Send the file as multipart/form-data with the parts `file` (the file) and `purpose` (`dispute_evidence`)."

interface Form {
  readonly purpose?: string
  readonly file?: { readonly name: string; readonly contents: Uint8Array }
}

const missing = (param: string) => failWith(InvalidRequest, { code: "parameter_missing", message: `Missing required parameter: ${param}. ${FORM}`, param })

/** A part the form may not hold, or holds wrongly: a 400. */
type Invalid = Effect.Effect.Error<ReturnType<typeof missing>>

type TooLarge = Effect.Effect.Error<ReturnType<typeof tooLarge>>

const tooLarge = () => failWith(PayloadTooLarge, { message: `The file is larger than ${MAX_FILE_BYTES} bytes (5 MiB).`, param: "file" })

/** What the form parser refused, as the error the client is told (a file over the cap is a 413, like any body over its limit). */
const refusalOf = (error: Multipart.MultipartError): Effect.Effect<never, Invalid | TooLarge> => {
  // A limit reached while a file's bytes stream in fails that file's stream, so it arrives as its read's failure.
  if (error.reason === "InternalError" && (error.cause as { readonly _tag?: unknown } | undefined)?._tag === "ReachedLimit") return tooLarge()
  switch (error.reason) {
    case "FileTooLarge":
    case "BodyTooLarge":
      return tooLarge()
    case "TooManyParts":
      return failWith(InvalidRequest, { code: "parameter_unknown", message: `The form has too many parts. ${FORM}`, param: null })
    case "FieldTooLarge":
      return failWith(InvalidRequest, { code: "parameter_invalid", message: `A form field is too long. ${FORM}`, param: null })
    default:
      return failWith(InvalidRequest, { code: "request_malformed", message: `The request body is not a well-formed form. ${FORM}`, param: null })
  }
}

const unknownPart = (key: string) =>
  failWith(InvalidRequest, { code: "parameter_unknown", message: `Received unknown parameter: ${echoed(key)}. ${FORM}`, param: echoed(key) })

const twice = (key: string) => failWith(InvalidRequest, { code: "parameter_invalid", message: `The part ${key} was sent more than once. ${FORM}`, param: key })

/** One part of the form, added to what was read before it; the file's bytes are read as they come, within the cap. */
const addPart = (form: Form, part: Multipart.Part): Effect.Effect<Form, Invalid | Multipart.MultipartError> => {
  if (part.key === "file") {
    if (!Multipart.isFile(part)) {
      return failWith(InvalidRequest, { code: "parameter_invalid", message: `The part file must be a file (with a filename). ${FORM}`, param: "file" })
    }
    if (form.file !== undefined) return twice("file")
    return Effect.map(part.contentEffect, (contents) => ({ ...form, file: { name: part.name, contents } }))
  }
  if (part.key === "purpose" && Multipart.isField(part)) return form.purpose === undefined ? Effect.succeed({ ...form, purpose: part.value }) : twice("purpose")
  return unknownPart(part.key)
}

/**
 * The form parser throws, instead of failing, on a body without a multipart boundary (JSON, no body):
 * that throw, and only it, is the client's malformed request.
 */
const isMissingBoundary = (defect: unknown) => (defect as { readonly context?: { readonly _tag?: unknown } } | undefined)?.context?._tag === "InvalidBoundary"

const notAForm = () => failWith(InvalidRequest, { code: "request_malformed", message: `The request body is not multipart/form-data. ${FORM}`, param: null })

/** The upload a `multipart/form-data` body holds, or the 400 (413 past the cap) saying what is wrong with it. */
export const readUpload = (parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>): Effect.Effect<FileUpload, Invalid | TooLarge> =>
  Effect.gen(function*() {
    const form = yield* Stream.runFoldEffect(parts, {} as Form, addPart).pipe(
      Effect.catchTag("MultipartError", refusalOf),
      Effect.catchSomeDefect((defect) => isMissingBoundary(defect) ? Option.some(notAForm()) : Option.none())
    )
    if (form.purpose === undefined) return yield* missing("purpose")
    if (!Schema.is(FilePurpose)(form.purpose)) {
      return yield* failWith(InvalidRequest, {
        code: "parameter_invalid",
        message: `Invalid purpose: must be dispute_evidence (received '${echoed(form.purpose)}').`,
        param: "purpose"
      })
    }
    if (form.file === undefined) return yield* missing("file")
    if (form.file.contents.length > MAX_FILE_BYTES) return yield* tooLarge()
    return { purpose: form.purpose, filename: fileNameOf(form.file.name), contents: form.file.contents }
  })
