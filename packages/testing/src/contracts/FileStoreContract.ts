import { expect } from "@effect/vitest"
import { FileResource, FileStore } from "@orchestrator/core"
import { Effect, Option } from "effect"
import { at, id, newTenant, same, type StorageContractTest } from "./StorageContractFixtures.js"

/** Every byte value, twice over, and a length that is no multiple of 3 (base64's padding) or of 76 (its line length). */
const everyByte = new Uint8Array(515).map((_, index) => (index * 7 + 3) % 256)

/** A file store: the bytes come back exactly, and only to the organization and mode that stored them. */
export const fileStoreContract = (it: StorageContractTest) => {
  it.effect("keeps a file's bytes exactly and shows it only to its organization and mode", () =>
    Effect.gen(function*() {
      const files = yield* FileStore
      const tenant = yield* newTenant
      const contents = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, ...everyByte])
      const file = new FileResource({
        object: "file",
        id: id("file"),
        purpose: "dispute_evidence",
        type: "pdf",
        size: contents.length,
        filename: "réçu 1.pdf",
        created_at: at(0),
        livemode: false
      })
      yield* files.insert(tenant, { file, contents })
      same(FileResource, Option.getOrThrow(yield* files.find(tenant, file.id)), file)
      const read = Option.getOrThrow(yield* files.read(tenant, file.id))
      same(FileResource, read.file, file)
      expect([...read.contents]).toEqual([...contents])

      expect(Option.isNone(yield* files.find(yield* newTenant, file.id))).toBe(true)
      expect(Option.isNone(yield* files.read(yield* newTenant, file.id))).toBe(true)
      expect(Option.isNone(yield* files.find({ ...tenant, livemode: true }, file.id))).toBe(true)
      expect(Option.isNone(yield* files.read(tenant, id("file")))).toBe(true)
    }))
}
