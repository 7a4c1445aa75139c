import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lockEmbedded } from "../src/EmbeddedLock.js"

describe("the embedded database's lock", () => {
  it.scoped("refuses a second process while the first lives, takes over after it died, and lets go on close", () =>
    Effect.gen(function*() {
      const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "postgres")
      const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })
      fs.writeFileSync(`${dataDir}.pid`, String(other.pid))

      const refused = yield* Effect.flip(Effect.scoped(lockEmbedded(dataDir)))
      expect(refused._tag).toBe("EmbeddedDatabaseInUse")
      expect(refused.message).toContain(`process ${other.pid}`)

      yield* Effect.promise(() =>
        new Promise<void>((resolve) => {
          other.once("exit", () => resolve())
          other.kill("SIGKILL")
        })
      )
      yield* Effect.scoped(Effect.gen(function*() {
        yield* lockEmbedded(dataDir)
        expect(fs.readFileSync(`${dataDir}.pid`, "utf8")).toBe(String(process.pid))
      }))
      expect(fs.existsSync(`${dataDir}.pid`)).toBe(false)
    }))
})
