import { Context, Effect, Layer } from "effect"
import { fileNameOf, fileTypeOf } from "../../domain/files/FileContent.js"
import { FileInvalid, FileNotFound } from "../../domain/files/FileErrors.js"
import { FileResource, type FileUpload, MAX_FILE_BYTES } from "../../domain/files/FileResource.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { FileStore, type StoredFile } from "../../ports/FileStore.js"
import { IdGenerator } from "../../ports/IdGenerator.js"

/** Files the merchant uploads (dispute evidence): checked by their content, kept whole, read back only by their tenant. */
export class Files extends Context.Tag("core/Files")<Files, {
  /** Stores a PDF, PNG or JPEG of at most 5 MiB, judged by its first bytes; anything else is refused and nothing stored. */
  readonly create: (tenant: Tenant, upload: FileUpload) => Effect.Effect<FileResource, FileInvalid>
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<FileResource, FileNotFound>
  /** The file with its bytes. */
  readonly read: (tenant: Tenant, id: string) => Effect.Effect<StoredFile, FileNotFound>
}>() {
  static readonly layer = Layer.effect(Files, Effect.suspend(() => make)).pipe(Layer.provide(IdGenerator.layer))
}

/** Why an upload is refused, if it is. */
const refusalOf = (contents: Uint8Array): FileInvalid | undefined =>
  contents.length === 0
    ? new FileInvalid({ code: "file_empty", message: "The file is empty." })
    : contents.length > MAX_FILE_BYTES
    ? new FileInvalid({ code: "file_too_large", message: `The file is larger than ${MAX_FILE_BYTES} bytes (5 MiB).` })
    : fileTypeOf(contents) === undefined
    ? new FileInvalid({ code: "file_type_invalid", message: "The file is not a PDF, PNG or JPEG (judged by its content, not its name)." })
    : undefined

const make = Effect.gen(function*() {
  const store = yield* FileStore
  const ids = yield* IdGenerator
  return Files.of({
    create: (tenant, upload) =>
      Effect.gen(function*() {
        const refusal = refusalOf(upload.contents)
        if (refusal !== undefined) return yield* refusal
        const file = new FileResource({
          object: "file",
          id: yield* ids.make("file"),
          purpose: upload.purpose,
          type: fileTypeOf(upload.contents)!,
          size: upload.contents.length,
          filename: fileNameOf(upload.filename),
          created_at: yield* now,
          livemode: tenant.livemode
        })
        yield* store.insert(tenant, { file, contents: upload.contents })
        return file
      }).pipe(Effect.withSpan("Files.create")),
    retrieve: (tenant, id) => Effect.flatMap(store.find(tenant, id), (found) => Effect.mapError(found, () => new FileNotFound({ id }))),
    read: (tenant, id) => Effect.flatMap(store.read(tenant, id), (found) => Effect.mapError(found, () => new FileNotFound({ id })))
  })
})
