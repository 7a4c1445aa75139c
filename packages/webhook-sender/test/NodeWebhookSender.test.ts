import { describe, expect, it } from "@effect/vitest"
import type { WebhookRequest } from "@orchestrator/core"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { makeNodeWebhookSender } from "../src/NodeWebhookSender.js"

interface Seen {
  readonly method: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** A local receiver answering with `handler`, recording what it was sent; closed with the scope. */
const receiver = (handler: (request: http.IncomingMessage, response: http.ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<{ port: number; seen: Array<Seen>; server: http.Server }>((resume) => {
      const seen: Array<Seen> = []
      const server = http.createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          seen.push({ method: request.method ?? "", headers: request.headers, body })
          handler(request, response)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        resume(Effect.succeed({ port: (server.address() as AddressInfo).port, seen, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )

const request = (url: string, livemode = false): WebhookRequest => ({
  url,
  headers: { "content-type": "application/json", "service-signature": "t=1,v1=ab" },
  body: new TextEncoder().encode("{\"id\":\"evt_1\"}"),
  livemode
})

describe("the Node webhook sender", () => {
  it.scoped("posts the exact bytes with the headers, and keeps the status and the first KiB of the answer", () =>
    Effect.gen(function*() {
      const { port, seen } = yield* receiver((_, response) => response.writeHead(202).end("x".repeat(5000)))
      const answer = yield* makeNodeWebhookSender().send(request(`http://127.0.0.1:${port}/hooks`))
      expect(answer).toEqual({ _tag: "Answered", status: 202, body: "x".repeat(1024) })
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ method: "POST", body: "{\"id\":\"evt_1\"}" })
      expect(seen[0]!.headers).toMatchObject({ "content-type": "application/json", "service-signature": "t=1,v1=ab" })
    }))

  it.scoped("keeps the connection to a receiver open between deliveries, and not after an answer it cut short", () =>
    Effect.gen(function*() {
      const ports: Array<number> = []
      const { port } = yield* receiver((request, response) => {
        ports.push(request.socket.remotePort!)
        response.writeHead(200).end(request.url === "/long" ? "y".repeat(5000) : "ok")
      })
      const sender = makeNodeWebhookSender()
      for (const path of ["/a", "/b", "/long", "/c"]) {
        expect(yield* sender.send(request(`http://127.0.0.1:${port}${path}`))).toMatchObject({ _tag: "Answered", status: 200 })
      }
      // One socket for the first three; the long answer was cut at 1 KiB, so its socket was dropped.
      expect(new Set(ports.slice(0, 3)).size).toBe(1)
      expect(ports[3]).not.toBe(ports[0])
    }))

  it.scoped("never follows a redirect: the 3xx is the answer", () =>
    Effect.gen(function*() {
      const target = yield* receiver((_, response) => response.writeHead(200).end("ok"))
      const redirecting = yield* receiver((_, response) => response.writeHead(307, { location: `http://127.0.0.1:${target.port}/` }).end())
      const answer = yield* makeNodeWebhookSender().send(request(`http://127.0.0.1:${redirecting.port}/`))
      expect(answer).toMatchObject({ _tag: "Answered", status: 307 })
      expect(target.seen).toHaveLength(0)
    }))

  it.scoped("reports a refused connection as unreachable", () =>
    Effect.gen(function*() {
      const { port, server } = yield* receiver((_, response) => response.end())
      yield* Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
      expect(yield* makeNodeWebhookSender().send(request(`http://127.0.0.1:${port}/`))).toEqual({
        _tag: "Unreachable",
        reason: "Connection refused."
      })
    }))

  it.scoped("in live mode reaches no loopback, private or link-local address, however the name resolves", () =>
    Effect.gen(function*() {
      const { port, seen } = yield* receiver((_, response) => response.writeHead(200).end())
      // The name of a public service that resolves, at connect time, to this very machine (DNS rebinding).
      const rebinding = makeNodeWebhookSender({ resolve: async () => [{ address: "127.0.0.1", family: 4 }] })
      const plain = makeNodeWebhookSender()
      for (
        const [sender, url] of [
          [plain, `https://127.0.0.1:${port}/`],
          [plain, `https://[::1]:${port}/`],
          [plain, `http://merchant.example:${port}/`],
          [rebinding, `https://merchant.example:${port}/`]
        ] as const
      ) {
        const answer = yield* sender.send(request(url, true))
        expect(answer._tag).toBe("Unreachable")
      }
      expect(((yield* rebinding.send(request(`https://merchant.example:${port}/`, true))) as { reason: string }).reason)
        .toContain("resolves only to private, loopback or link-local addresses")
      expect(seen).toHaveLength(0)
      // In test mode the same name reaches the merchant's machine: developing locally is the point.
      expect(yield* rebinding.send(request(`http://merchant.example:${port}/`))).toMatchObject({ _tag: "Answered", status: 200 })
      expect(seen).toHaveLength(1)
    }))

  it.scoped("with private addresses denied, test mode reaches no private address either: the operator's network stays closed", () =>
    Effect.gen(function*() {
      const { port, seen } = yield* receiver((_, response) => response.writeHead(200).end("internal secrets"))
      const guarded = makeNodeWebhookSender({
        privateAddresses: "deny",
        resolve: async () => [{ address: "10.0.0.7", family: 4 }, { address: "127.0.0.1", family: 4 }]
      })
      for (const url of [`http://127.0.0.1:${port}/`, `http://[::1]:${port}/`, `http://internal.example:${port}/`]) {
        const answer = yield* guarded.send(request(url))
        expect(answer).toMatchObject({ _tag: "Unreachable", reason: expect.stringContaining("private, loopback or link-local") })
      }
      expect(seen).toHaveLength(0)
    }))
})
