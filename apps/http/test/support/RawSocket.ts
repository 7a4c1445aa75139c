import { Effect } from "effect"
import * as net from "node:net"

/** One HTTP answer read off a socket, as the bytes said it. */
export interface SocketAnswer {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly json: any
}

/** The first answer in `received` and the bytes it took, once all of it is there. */
const complete = (received: Buffer): { readonly answer: SocketAnswer; readonly size: number } | undefined => {
  const end = received.indexOf("\r\n\r\n")
  if (end === -1) return undefined
  const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers["content-length"] ?? Number.NaN)
  if (Number.isNaN(length) || received.length < end + 4 + length) return undefined
  const body = received.subarray(end + 4, end + 4 + length).toString("utf8")
  let json: unknown = undefined
  try {
    json = JSON.parse(body)
  } catch {
    json = undefined
  }
  return { answer: { status: Number(statusLine!.split(" ")[1]), headers, body, json }, size: end + 4 + length }
}

/**
 * Sends `bytes` as they are on a new connection to 127.0.0.1:`port` (written in pieces, as a
 * client streaming a body would) and reads `count` answers. Fails, saying what arrived, when the
 * connection ends or is reset before they did, each whole with its Content-Length.
 */
export const exchangeMany = (port: number, bytes: string | Buffer | ReadonlyArray<string | Buffer>, count: number) =>
  Effect.async<ReadonlyArray<SocketAnswer>, Error>((resume) => {
    const socket = net.connect(port, "127.0.0.1")
    let received = Buffer.alloc(0)
    const answers: Array<SocketAnswer> = []
    let done = false
    const finish = (result: Effect.Effect<ReadonlyArray<SocketAnswer>, Error>) => {
      if (done) return
      done = true
      socket.destroy()
      resume(result)
    }
    socket.on("connect", () => {
      for (const piece of Array.isArray(bytes) ? bytes : [bytes]) {
        if (!socket.destroyed) socket.write(piece)
      }
    })
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      for (let next = complete(received); next !== undefined; next = complete(received)) {
        answers.push(next.answer)
        received = received.subarray(next.size)
      }
      if (answers.length >= count) finish(Effect.succeed(answers))
    })
    const early = (why: string) =>
      finish(Effect.fail(
        new Error(`${why} after ${answers.length} answers and ${received.length} bytes: ${JSON.stringify(received.toString("latin1").slice(0, 300))}`)
      ))
    socket.on("error", (error: NodeJS.ErrnoException) => early(error.code ?? error.message))
    socket.on("close", () => early("closed"))
    return Effect.sync(() => socket.destroy())
  })

/** The first answer to `bytes` on a new connection: see `exchangeMany`. */
export const exchange = (port: number, bytes: string | Buffer | ReadonlyArray<string | Buffer>) =>
  Effect.map(exchangeMany(port, bytes, 1), (answers) => answers[0]!)
