import { Effect, Option, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"

const readIfPresent = (file: string) => Effect.promise(() => fs.readFile(file, "utf8").then((text) => text.trim(), () => undefined))

/** Writes a file only this user can read, without ever replacing one that exists. */
const writeOnce = (file: string, content: string) =>
  Effect.promise(async () => {
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.writeFile(file, `${content}\n`, { mode: 0o600, flag: "wx" })
  })

/**
 * The 32-byte master secret: `ORCHESTRATOR_ENCRYPTION_KEY` when set, else a key generated once into
 * the data directory (fine for one machine; set the variable when several processes share a database).
 */
export const loadMasterSecret = (configured: Option.Option<Redacted.Redacted>, dataDir: string) =>
  Effect.gen(function*() {
    const file = path.join(dataDir, "encryption.key")
    const hex = Option.isSome(configured)
      ? Redacted.value(configured.value)
      : (yield* readIfPresent(file)) ?? (yield* Effect.suspend(() => {
        const generated = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")
        return Effect.as(writeOnce(file, generated), generated)
      }))
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
      return yield* Effect.dieMessage(`${file} does not hold a 64-character hexadecimal key`)
    }
    return new Uint8Array(Buffer.from(hex, "hex"))
  })

export const devKeyFile = (dataDir: string) => path.join(dataDir, "dev-api-key")

/** The development key saved by an earlier start, if any. */
export const readDevKey = (dataDir: string) => readIfPresent(devKeyFile(dataDir))

export const saveDevKey = (dataDir: string, secret: string) => writeOnce(devKeyFile(dataDir), secret)
