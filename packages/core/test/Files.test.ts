import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fileNameOf, fileTypeOf } from "../src/domain/files/FileContent.js"
import { MAX_FILE_BYTES } from "../src/domain/files/FileResource.js"
import { Files } from "../src/features/files/Files.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const text = (value: string) => new TextEncoder().encode(value)
const pdf = text("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n")
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])

describe("file types, judged by content", () => {
  it("recognises PDF, PNG and JPEG by their first bytes, whatever they are called", () => {
    expect([fileTypeOf(pdf), fileTypeOf(png), fileTypeOf(jpeg)]).toEqual(["pdf", "png", "jpg"])
    // A GIF, an HTML page, a ZIP (an .docx), a PDF's signature not at the start, and half a PNG signature.
    for (const other of [text("GIF89a"), text("<html>%PDF-"), new Uint8Array([0x50, 0x4b, 3, 4]), text(" %PDF-1.4"), png.subarray(0, 5)]) {
      expect(fileTypeOf(other)).toBeUndefined()
    }
  })

  it("keeps only the last part of a file name, without control characters, and at most 200 characters", () => {
    expect(fileNameOf("C:\\Users\\me\\receipt.pdf")).toBe("receipt.pdf")
    expect(fileNameOf("../../etc/passwd")).toBe("passwd")
    expect(fileNameOf("a\u0000b\r\nc.png")).toBe("abc.png")
    expect(fileNameOf("x".repeat(300))).toHaveLength(200)
    expect([fileNameOf(""), fileNameOf("dir/"), fileNameOf(null)]).toEqual([null, null, null])
  })
})

describe("Files", () => {
  const { layer } = makeTestServices()

  it.effect("stores a file and gives it back only to the organization and mode that uploaded it", () =>
    Effect.gen(function*() {
      const files = yield* Files
      const tenant = yield* createTenant
      const file = yield* files.create(tenant, { purpose: "dispute_evidence", filename: "scans/receipt.jpeg", contents: jpeg })
      expect(file).toMatchObject({ object: "file", purpose: "dispute_evidence", type: "jpg", size: jpeg.length, filename: "receipt.jpeg", livemode: false })
      expect(file.id).toMatch(/^file_/)
      expect(yield* files.retrieve(tenant, file.id)).toEqual(file)
      expect([...(yield* files.read(tenant, file.id)).contents]).toEqual([...jpeg])

      const other = yield* createTenant
      expect(yield* Effect.flip(files.retrieve(other, file.id))).toMatchObject({ _tag: "FileNotFound", id: file.id })
      expect(yield* Effect.flip(files.read(other, file.id))).toMatchObject({ _tag: "FileNotFound" })
      expect(yield* Effect.flip(files.read({ ...tenant, livemode: true }, file.id))).toMatchObject({ _tag: "FileNotFound" })
    }).pipe(Effect.provide(layer)))

  it.effect("refuses a file that is not a PDF, PNG or JPEG by its content, an empty one and one over 5 MiB, and takes one of exactly 5 MiB", () =>
    Effect.gen(function*() {
      const files = yield* Files
      const tenant = yield* createTenant
      const refusal = (contents: Uint8Array, filename = "evidence.pdf") =>
        Effect.map(Effect.flip(files.create(tenant, { purpose: "dispute_evidence", filename, contents })), (failure) => failure.answer)
      expect(yield* refusal(text("<script>alert(1)</script>"))).toMatchObject({ code: "file_type_invalid", param: "file" })
      expect(yield* refusal(new Uint8Array(0))).toMatchObject({ code: "file_empty" })
      const huge = new Uint8Array(MAX_FILE_BYTES + 1)
      huge.set(pdf)
      expect(yield* refusal(huge)).toMatchObject({ code: "file_too_large" })
      const atCap = new Uint8Array(MAX_FILE_BYTES)
      atCap.set(pdf)
      expect((yield* files.create(tenant, { purpose: "dispute_evidence", filename: null, contents: atCap })).size).toBe(MAX_FILE_BYTES)
    }).pipe(Effect.provide(layer)))
})
