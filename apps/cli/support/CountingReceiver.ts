/**
 * A merchant's webhook receiver for the bench and the fault suite: answers 200 at once and counts
 * how often each event id arrived; `inspect` sees each body (the fault suite searches them for card numbers).
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export const startCountingReceiver = (options: { readonly inspect?: (body: string) => void } = {}) =>
  new Promise<{
    readonly url: string
    readonly counts: Map<string, number>
    /** TCP connections the sender opened so far: with keep-alive, far fewer than deliveries. */
    readonly connections: () => number
    readonly close: () => void
  }>((resolve) => {
    const counts = new Map<string, number>()
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        options.inspect?.(body)
        const id = /"id":"(evt_[^"]+)"/.exec(body)?.[1]
        if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1)
        response.writeHead(200).end()
      })
    })
    let connections = 0
    server.on("connection", () => connections++)
    server.keepAliveTimeout = 30_000
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        counts,
        connections: () => connections,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
  })
