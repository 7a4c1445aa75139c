import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

/** Another live process has the embedded database open. */
export class EmbeddedDatabaseInUse extends Data.TaggedError("EmbeddedDatabaseInUse")<{
  readonly dataDir: string
  readonly pid: number
}> {
  override get message() {
    return `the embedded database in ${this.dataDir} is open in process ${this.pid} (orchestrator start?): ` +
      `stop it first, or use DATABASE_URL (PostgreSQL) to run several processes`
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === "EPERM"
  }
}

/**
 * PGlite is one process's database: a second process opening the same files would not see the
 * first one's writes and could corrupt them. The first to open it leaves its pid in `<dataDir>.pid`;
 * another process is refused while that one lives. A pid file left by a process that died is taken
 * over.
 */
export const lockEmbedded = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const file = `${dataDir}.pid`
      fs.mkdirSync(path.dirname(dataDir), { recursive: true })
      for (let tries = 0; tries < 3; tries++) {
        try {
          fs.writeFileSync(file, String(process.pid), { flag: "wx" })
          return file
        } catch {
          const holder = Number(fs.readFileSync(file, "utf8").trim())
          if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
            return yield* new EmbeddedDatabaseInUse({ dataDir, pid: holder })
          }
          fs.rmSync(file, { force: true })
        }
      }
      return yield* Effect.dieMessage(`could not take ${file}`)
    }),
    (file) => Effect.sync(() => fs.rmSync(file, { force: true }))
  )
