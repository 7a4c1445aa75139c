import { Effect, Logger, LogLevel } from "effect"
import { describe, expect, it } from "vitest"
import { announcementLine, lineLogger } from "../src/logging/ServiceLogger.js"

const afterThisTurn = () => new Promise((resolve) => setImmediate(resolve))

const logWith = async (json: boolean, effect: Effect.Effect<void>) => {
  const writes: Array<string> = []
  await Effect.runPromise(effect.pipe(
    Effect.provide(Logger.replace(Logger.defaultLogger, lineLogger({ write: (text) => writes.push(text) }, json))),
    Logger.withMinimumLogLevel(LogLevel.Info)
  ))
  await afterThisTurn()
  return writes
}

describe("the service's log", () => {
  it("writes one JSON object per entry, with its annotations, into a pipe", async () => {
    const writes = await logWith(
      true,
      Effect.logInfo("POST /v1/payments 201 3ms").pipe(Effect.annotateLogs("request_id", "req_1"))
    )
    const entries = writes.join("").trimEnd().split("\n").map((line) => JSON.parse(line))
    expect(entries).toEqual([
      { time: expect.any(String), level: "INFO", message: "POST /v1/payments 201 3ms", request_id: "req_1" }
    ])
  })

  it("keeps a message with line breaks on one line", async () => {
    const writes = await logWith(true, Effect.logError("failed\n  at somewhere"))
    expect(writes.join("").trimEnd().split("\n")).toHaveLength(1)
    expect(JSON.parse(writes.join("")).message).toBe("failed\n  at somewhere")
  })

  it("writes the entries of one turn of the event loop together, and none below the level", async () => {
    const writes = await logWith(
      false,
      Effect.all([Effect.logInfo("first"), Effect.logDebug("hidden"), Effect.logWarning("second").pipe(Effect.annotateLogs("k", "v"))])
    )
    expect(writes).toHaveLength(1)
    expect(writes[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO first\n\[\d\d:\d\d:\d\d\.\d{3}\] WARN second k=v\n$/)
  })

  it("writes what the operator is told at start as it is on a terminal, and as a log entry into a pipe", () => {
    const text = "API: http://localhost:3000/v1 · docs: http://localhost:3000/docs"
    expect(announcementLine(text, false)).toBe(`${text}\n`)
    expect(JSON.parse(announcementLine(text, true))).toEqual({ time: expect.any(String), level: "INFO", message: text })
  })
})
