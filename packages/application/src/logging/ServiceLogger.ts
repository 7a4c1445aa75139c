import { Cause, Effect, HashMap, Logger, type LogLevel } from "effect"

/**
 * The service's log: one line per entry, written without `util.format` or inspection (the access
 * line of every request goes through here). Lines of one turn of the event loop leave in one write
 * after it, not one system call each; whatever is pending is written before the process exits.
 *
 * On a terminal a line reads `[12:00:00.000] INFO POST /v1/payments 201 3ms request_id=req_…`; into
 * a pipe or file (where log collectors read) it is one JSON object per line:
 * `{"time":"…","level":"INFO","message":"POST /v1/payments 201 3ms","request_id":"req_…"}`.
 * Which entries are written at all is `LOG_LEVEL`'s to say, before any line is built.
 */
export interface LineSink {
  readonly write: (text: string) => void
}

const text = (message: unknown): string => {
  if (typeof message === "string") return message
  if (Array.isArray(message)) return message.map(text).join(" ")
  if (message instanceof Error) return message.stack ?? `${message.name}: ${message.message}`
  try {
    return JSON.stringify(message) ?? String(message)
  } catch {
    return String(message)
  }
}

const annotationText = (value: unknown): string => (typeof value === "string" ? value : text(value))

/** Lines to `sink`, those of one turn of the event loop in one write after it, in the order given. */
const lineWriter = (sink: LineSink) => {
  let pending: Array<string> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const lines = pending
    pending = []
    sink.write(lines.join(""))
  }
  process.once("exit", flush)
  return (line: string) => {
    pending.push(line)
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
}

const jsonLine = (date: Date, level: string, body: string) => `{"time":"${date.toISOString()}","level":"${level}","message":${JSON.stringify(body)}`

/** A logger writing lines to `sink`; `json` picks the format. Exposed for tests. */
export const lineLogger = (sink: LineSink, json: boolean, emit: (line: string) => void = lineWriter(sink)) => {
  return Logger.make<unknown, void>(({ annotations, cause, date, logLevel, message }) => {
    const failure = Cause.isEmpty(cause) ? undefined : Cause.pretty(cause, { renderErrorCause: true })
    const body = failure === undefined ? text(message) : `${text(message)}\n${failure}`
    if (json) {
      let line = jsonLine(date, (logLevel as LogLevel.LogLevel).label, body)
      for (const [key, value] of HashMap.toEntries(annotations)) {
        line += `,${JSON.stringify(key)}:${JSON.stringify(annotationText(value))}`
      }
      emit(`${line}}\n`)
    } else {
      let line = `[${date.toISOString().slice(11, 23)}] ${logLevel.label} ${body}`
      for (const [key, value] of HashMap.toEntries(annotations)) line += ` ${key}=${annotationText(value)}`
      emit(`${line}\n`)
    }
  })
}

/** The line as `announce` writes it: as typed on a terminal, a log entry (level INFO) in JSON. */
export const announcementLine = (message: string, json: boolean, date = new Date()) => json ? `${jsonLine(date, "INFO", message)}}\n` : `${message}\n`

const standardOutput = { write: (lines: string) => void process.stdout.write(lines) }
const jsonOutput = process.stdout.isTTY !== true
const emitToStandardOutput = lineWriter(standardOutput)

/** The process's logger, to standard output, in place of Effect's default one. */
export const ServiceLoggerLive = Logger.replace(Logger.defaultLogger, lineLogger(standardOutput, jsonOutput, emitToStandardOutput))

/**
 * What the operator is told whatever `LOG_LEVEL` says (the development key, the addresses, what a
 * first start is doing): on a terminal the line as it is, into a pipe or a file a log entry like every
 * other line, so a log collector reads JSON only. In order with the log's lines.
 */
export const announce = (message: string) => Effect.sync(() => emitToStandardOutput(announcementLine(message, jsonOutput)))
