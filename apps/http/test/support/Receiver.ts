import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly headers: http.IncomingHttpHeaders
  /** The exact bytes received. */
  readonly body: Buffer
}

/**
 * A merchant's webhook receiver on a free local port: it records every request and answers `status`
 * (200 unless changed). `stop` closes it, so the next delivery finds the connection refused.
 */
export const startReceiver = Effect.acquireRelease(
  Effect.async<{
    readonly url: string
    readonly received: Array<Received>
    /** The status, and optionally the body, of every answer from now on. */
    readonly answerWith: (status: number, body?: string) => void
    readonly stop: Effect.Effect<void>
  }>((resume) => {
    const received: Array<Received> = []
    let status = 200
    let answer: string | undefined = undefined
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks) })
        response.writeHead(status, { "content-type": "text/plain" }).end(answer ?? (status < 300 ? "thanks" : "not now"))
      })
    })
    const stop = Effect.async<void>((done) => {
      server.closeAllConnections()
      server.close(() => done(Effect.void))
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received,
        answerWith: (next, body) => {
          status = next
          answer = body
        },
        stop: Effect.ignore(Effect.orDie(stop))
      })))
  }),
  (receiver) => receiver.stop
)
