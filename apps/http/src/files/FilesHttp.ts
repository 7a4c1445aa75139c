import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CurrentTenant, FILE_MEDIA_TYPES, type FileResource, Files } from "@orchestrator/core"
import { Effect } from "effect"
import { readUpload } from "./FileUploads.js"

/** `Content-Disposition` for a file's name: an ASCII fallback and the exact name encoded (RFC 6266, RFC 8187). */
const dispositionOf = (file: FileResource) => {
  const name = file.filename ?? `${file.id}.${file.type}`
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_")
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/** `/v1/files`: uploads (multipart, checked by content) and their bytes, for the organization and mode that uploaded them. */
export const FilesHttpLive = HttpApiBuilder.group(Api, "files", (handlers) =>
  Effect.gen(function*() {
    const files = yield* Files
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) => Effect.flatMap(readUpload(payload), (upload) => answering(files.create(tenant, upload)))))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => answering(files.retrieve(tenant, path.id))))
      .handle("contents", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          Effect.map(answering(files.read(tenant, path.id)), ({ contents, file }) =>
            HttpServerResponse.uint8Array(contents, {
              contentType: FILE_MEDIA_TYPES[file.type],
              headers: {
                "content-disposition": dispositionOf(file),
                "x-content-type-options": "nosniff",
                // Never run as a page, even if a browser were made to open it inline.
                "content-security-policy": "default-src 'none'; sandbox",
                "cache-control": "private, no-store"
              }
            }))))
  }))
