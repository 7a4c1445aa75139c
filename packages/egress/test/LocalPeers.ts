import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A peer on 127.0.0.1 playing one part (a PSP, a receiver, an internal service an attacker aims
 * at), recording what reached it and whether its side of each connection was closed.
 */
export interface LocalPeer {
  readonly port: number
  readonly url: string
  /** Requests that reached it. */
  readonly hits: () => number
  /** Bytes of answers handed to its sockets so far. */
  readonly written: () => number
  /** Resolves once every connection that reached it is closed (at most `withinMs`): true if they were. */
  readonly allClosed: (withinMs: number) => Promise<boolean>
}

export type Behaviour =
  | { readonly _tag: "answer"; readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  /** Takes the request, never answers. */
  | { readonly _tag: "hang" }
  /** Streams `bytes` lazily, as fast as the reader takes them; with `declare`, says so in Content-Length. */
  | { readonly _tag: "stream"; readonly bytes: number; readonly declare?: boolean }

export const answer = (status: number, body: string, headers?: Record<string, string>): Behaviour => ({
  _tag: "answer",
  status,
  body,
  ...(headers === undefined ? {} : { headers })
})
export const hang: Behaviour = { _tag: "hang" }
export const stream = (bytes: number, declare = false): Behaviour => ({ _tag: "stream", bytes, declare })

export const MEGABYTE = 1024 * 1024

/** Starts a peer behaving so; it stops with the scope. */
export const localPeer = (behaviour: Behaviour) =>
  Effect.acquireRelease(
    Effect.async<LocalPeer & { readonly server: http.Server }>((resume) => {
      let hits = 0
      let written = 0
      const open = new Set<import("node:net").Socket>()
      const chunk = Buffer.alloc(64 * 1024, "a")
      const server = http.createServer((request, response) => {
        hits++
        request.resume()
        if (behaviour._tag === "answer") {
          response.writeHead(behaviour.status, behaviour.headers ?? {}).end(behaviour.body)
          written += Buffer.byteLength(behaviour.body)
          return
        }
        if (behaviour._tag === "hang") return
        response.writeHead(200, behaviour.declare === true ? { "content-length": String(behaviour.bytes) } : {})
        // Lazily: a chunk more only when the last one left, so what is written is what the reader took.
        const more = () => {
          while (written < behaviour.bytes && !response.destroyed) {
            written += chunk.length
            if (!response.write(chunk)) return void response.once("drain", more)
          }
          if (!response.destroyed) response.end()
        }
        more()
      })
      server.on("connection", (socket) => {
        open.add(socket)
        socket.on("close", () => open.delete(socket))
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(Effect.succeed({
          server,
          port,
          url: `http://127.0.0.1:${port}`,
          hits: () => hits,
          written: () => written,
          allClosed: async (withinMs) => {
            const until = Date.now() + withinMs
            while (open.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10))
            return open.size === 0
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
