/**
 * A TCP relay between the service and PostgreSQL that counts, from the wire protocol itself, the
 * statements the service executes and the round trips it waits for: whatever the driver, nothing
 * is estimated. (`pg_stat_statements` would need a server restart with it preloaded.) The relay
 * costs CPU on this machine, so the bench counts in a phase of its own, never while it times.
 *
 * A statement is an Execute or a simple Query message. A round trip is the client sending while
 * nothing it sent before is still unanswered (every Sync and simple Query is answered by one
 * ReadyForQuery): statements pipelined behind others cost no round trip of their own.
 */
import * as net from "node:net"
import type { AddressInfo } from "node:net"

export interface WireCounts {
  statements: number
  roundTrips: number
}

const READY_FOR_QUERY = 0x5a // 'Z'
const EXECUTE = 0x45 // 'E'
const QUERY = 0x51 // 'Q'
const SYNC = 0x53 // 'S'

/** Calls `onMessage` with each message's type byte; the first message of a client (startup) has none. */
const messageTypes = (untypedFirst: boolean, onMessage: (type: number) => void) => {
  const header = Buffer.alloc(5)
  let filled = 0
  let skip = 0
  let untyped = untypedFirst
  return (chunk: Buffer) => {
    let at = 0
    while (at < chunk.length) {
      if (skip > 0) {
        const taken = Math.min(skip, chunk.length - at)
        skip -= taken
        at += taken
        continue
      }
      header[filled++] = chunk[at++]!
      if (untyped && filled === 4) {
        skip = header.readInt32BE(0) - 4
        untyped = false
        filled = 0
      } else if (!untyped && filled === 5) {
        onMessage(header[0]!)
        skip = header.readInt32BE(1) - 4
        filled = 0
      }
    }
  }
}

export const startWireCounter = (upstream: { readonly host: string; readonly port: number }) =>
  new Promise<{ readonly port: number; readonly counts: WireCounts; readonly reset: () => void; readonly close: () => void }>(
    (resolve) => {
      const counts: WireCounts = { statements: 0, roundTrips: 0 }
      const sockets = new Set<net.Socket>()
      const server = net.createServer((client) => {
        const database = net.connect(upstream.port, upstream.host)
        sockets.add(client).add(database)
        let unanswered = 0
        let waits = 0
        const fromClient = messageTypes(true, (type) => {
          if (type === EXECUTE || type === QUERY) counts.statements++
          if (type === SYNC || type === QUERY) waits++
        })
        const fromServer = messageTypes(false, (type) => {
          if (type === READY_FOR_QUERY && unanswered > 0) unanswered--
        })
        client.on("data", (chunk: Buffer) => {
          waits = 0
          fromClient(chunk)
          if (waits > 0 && unanswered === 0) counts.roundTrips++
          unanswered += waits
          database.write(chunk)
        })
        database.on("data", (chunk: Buffer) => {
          fromServer(chunk)
          client.write(chunk)
        })
        const end = () => {
          client.destroy()
          database.destroy()
          sockets.delete(client)
          sockets.delete(database)
        }
        client.on("close", end).on("error", end)
        database.on("close", end).on("error", end)
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          counts,
          reset: () => {
            counts.statements = 0
            counts.roundTrips = 0
          },
          close: () => {
            server.close()
            for (const socket of sockets) socket.destroy()
          }
        }))
    }
  )
