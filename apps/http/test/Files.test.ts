import { expect, layer } from "@effect/vitest"
import { MAX_FILE_BYTES } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const PDF = bytes("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

/** A `multipart/form-data` body as a browser or curl sends it (`fetch` writes the boundary). */
const form = (
  parts: { readonly file?: { readonly contents: Uint8Array; readonly name: string; readonly type?: string }; readonly [field: string]: unknown }
) => {
  const body = new FormData()
  for (const [name, value] of Object.entries(parts)) {
    if (name === "file" && typeof value === "object" && value !== null) {
      const file = value as { contents: Uint8Array; name: string; type?: string }
      body.append("file", new Blob([new Uint8Array(file.contents)], { type: file.type ?? "application/octet-stream" }), file.name)
    } else body.append(name, String(value))
  }
  return body
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(`files over HTTP on ${database.name}`, (it) => {
    it.effect("uploads a PDF as multipart, answers its metadata, and serves its bytes only to its organization", () =>
      Effect.gen(function*() {
        const { baseUrl, secret } = yield* merchant()
        const auth = { authorization: `Bearer ${secret}` }
        const upload = (body: FormData) => raw(`${baseUrl}/v1/files`, { method: "POST", headers: auth, body })
        const created = yield* upload(form({ purpose: "dispute_evidence", file: { contents: PDF, name: "Reçu n°1.pdf", type: "application/pdf" } }))
        expect(created.status).toBe(201)
        expect(created.json).toMatchObject({
          object: "file",
          purpose: "dispute_evidence",
          type: "pdf",
          size: PDF.length,
          filename: "Reçu n°1.pdf",
          livemode: false
        })
        expect(created.json.id).toMatch(/^file_/)
        const id = created.json.id as string

        const retrieved = yield* raw(`${baseUrl}/v1/files/${id}`, { headers: auth })
        expect([retrieved.status, retrieved.json]).toEqual([200, created.json])
        const contents = yield* Effect.promise(() => fetch(`${baseUrl}/v1/files/${id}/contents`, { headers: auth }))
        expect(contents.status).toBe(200)
        expect(contents.headers.get("content-type")).toBe("application/pdf")
        expect(contents.headers.get("x-content-type-options")).toBe("nosniff")
        expect(contents.headers.get("content-disposition")).toBe(`attachment; filename="Re_u n_1.pdf"; filename*=UTF-8''Re%C3%A7u%20n%C2%B01.pdf`)
        expect(new Uint8Array(yield* Effect.promise(() => contents.arrayBuffer()))).toEqual(PDF)

        // A PNG declared as a PDF is what its bytes say.
        const png = yield* upload(form({ purpose: "dispute_evidence", file: { contents: PNG, name: "photo.pdf", type: "application/pdf" } }))
        expect([png.status, png.json.type]).toEqual([201, "png"])
        const pngContents = yield* raw(`${baseUrl}/v1/files/${png.json.id}/contents`, { headers: auth })
        expect(pngContents.headers.get("content-type")).toBe("image/png")

        const other = yield* merchant()
        const otherAuth = { authorization: `Bearer ${other.secret}` }
        for (const path of [`/v1/files/${id}`, `/v1/files/${id}/contents`]) {
          const refused = yield* raw(`${baseUrl}${path}`, { headers: otherAuth })
          expect([refused.status, refused.json.error.code, refused.json.error.type]).toEqual([404, "resource_missing", "invalid_request_error"])
        }
        const unknown = yield* raw(`${baseUrl}/v1/files/file_nope/contents`, { headers: auth })
        expect([unknown.status, unknown.json.error.param]).toEqual([404, "id"])
      }))

    it.effect("refuses a file of the wrong type whatever its name, an empty file, one over 5 MiB, and forms without purpose or file", () =>
      Effect.gen(function*() {
        const { baseUrl, secret } = yield* merchant()
        const upload = (body: BodyInit, headers: Record<string, string> = {}) =>
          raw(`${baseUrl}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${secret}`, ...headers }, body })
        const error = (answer: { status: number; json: any }) => [answer.status, answer.json?.error?.code, answer.json?.error?.param]

        const html = bytes("<html><script>alert(1)</script></html>")
        expect(error(yield* upload(form({ purpose: "dispute_evidence", file: { contents: html, name: "receipt.pdf", type: "application/pdf" } }))))
          .toEqual([400, "file_type_invalid", "file"])
        expect(error(yield* upload(form({ purpose: "dispute_evidence", file: { contents: new Uint8Array(0), name: "empty.pdf" } }))))
          .toEqual([400, "file_empty", "file"])
        const huge = new Uint8Array(MAX_FILE_BYTES + 1)
        huge.set(PDF)
        const tooLarge = yield* upload(form({ purpose: "dispute_evidence", file: { contents: huge, name: "huge.pdf" } }))
        expect(error(tooLarge)).toEqual([413, "payload_too_large", "file"])
        expect(tooLarge.json.error.type).toBe("invalid_request_error")
        const atCap = new Uint8Array(MAX_FILE_BYTES)
        atCap.set(PDF)
        const largest = yield* upload(form({ purpose: "dispute_evidence", file: { contents: atCap, name: "largest.pdf" } }))
        expect([largest.status, largest.json.size]).toEqual([201, MAX_FILE_BYTES])

        expect(error(yield* upload(form({ file: { contents: PDF, name: "a.pdf" } })))).toEqual([400, "parameter_missing", "purpose"])
        expect(error(yield* upload(form({ purpose: "identity_document", file: { contents: PDF, name: "a.pdf" } }))))
          .toEqual([400, "parameter_invalid", "purpose"])
        expect(error(yield* upload(form({ purpose: "dispute_evidence" })))).toEqual([400, "parameter_missing", "file"])
        expect(error(yield* upload(form({ purpose: "dispute_evidence", file: { contents: PDF, name: "a.pdf" }, note: "x" }))))
          .toEqual([400, "parameter_unknown", "note"])
        // JSON, or no body, is not a form.
        const asJson = yield* upload(JSON.stringify({ purpose: "dispute_evidence" }), { "content-type": "application/json" })
        expect([asJson.status, asJson.json.error.type]).toEqual([400, "invalid_request_error"])
        const empty = yield* raw(`${baseUrl}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${secret}` } })
        expect([empty.status, empty.json.error.type]).toEqual([400, "invalid_request_error"])
        // The raised limit is this route's only: 1 MiB still holds everywhere else.
        const bigJson = yield* upload(JSON.stringify({ metadata: { note: "x".repeat(2 * 1024 * 1024) } }), { "content-type": "application/json" })
        expect(bigJson.status).toBe(400)
        const elsewhere = yield* raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body: JSON.stringify({ note: "x".repeat(2 * 1024 * 1024) })
        })
        expect([elsewhere.status, elsewhere.json.error.code]).toEqual([413, "payload_too_large"])
      }))
  })
}
