import { expect, layer } from "@effect/vitest"
import { API_VERSION, PublicUrls } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { exchange, exchangeMany, type SocketAnswer } from "./support/RawSocket.js"
import { merchant, serverLayer } from "./support/TestServer.js"

/**
 * What a client writing bytes the HTTP parser refuses gets back, read off a raw socket: the
 * documented error body, a Request-Id naming it, and the answer before the connection ends.
 */

const portOf = Effect.map(PublicUrls, ({ base: url }) => Number(new URL(url).port))

const expectRefusal = (answer: SocketAnswer, status: number, code: string, options: { readonly close?: boolean } = {}) => {
  expect([answer.status, answer.json?.error?.code]).toEqual([status, code])
  expect(answer.headers["content-type"]).toContain("application/json")
  expect(Object.keys(answer.json)).toEqual(["error"])
  expect(answer.json.error).toMatchObject({ type: "invalid_request_error", request_id: expect.stringMatching(/^req_[0-9A-Z]{26,}$/) })
  expect(typeof answer.json.error.message).toBe("string")
  expect(answer.json.error.request_id).toBe(answer.headers["request-id"])
  expect(answer.headers["service-version"]).toBe(API_VERSION)
  if (options.close !== false) expect(answer.headers["connection"]).toBe("close")
}

const get = (target: string, headers = "Host: localhost\r\n") => `GET ${target} HTTP/1.1\r\n${headers}\r\n`

/** A chunked body of `size` bytes of JSON-ish text, in chunks of 64 KiB. */
const chunked = (size: number) => {
  const pieces: Array<string> = []
  for (let sent = 0; sent < size; sent += 65536) {
    const length = Math.min(65536, size - sent)
    pieces.push(`${length.toString(16)}\r\n${"a".repeat(length)}\r\n`)
  }
  return [...pieces, "0\r\n\r\n"]
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `requests the HTTP parser refuses, over raw sockets, on ${database.name}`,
    (it) => {
      it.effect("a Content-Length that is not a number, or sent twice, answers 400 with the error body", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          for (const lengths of ["Content-Length: abc\r\n", "Content-Length: -1\r\n", "Content-Length: 2\r\nContent-Length: 3\r\n"]) {
            const answer = yield* exchange(port, `POST /v1/payments HTTP/1.1\r\nHost: localhost\r\n${lengths}\r\n{}`)
            expectRefusal(answer, 400, "request_malformed")
            expect(answer.json.error.message).toContain("Content-Length")
          }
        }))

      it.effect("Content-Length together with Transfer-Encoding: chunked answers 400 (no request smuggling)", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          const answer = yield* exchange(
            port,
            "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /v1/payments HTTP/1.1\r\nHost: localhost\r\n\r\n"
          )
          expectRefusal(answer, 400, "request_malformed")
          expect(answer.json.error.message).toContain("Transfer-Encoding")
        }))

      it.effect("a control character (\\x01, NUL) in a header value answers 400", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          for (const value of ["a\x01b", "a\x00b", "pay\x00"]) {
            const answer = yield* exchange(port, get("/v1/payments", `Host: localhost\r\nIdempotency-Key: ${value}\r\n`))
            expectRefusal(answer, 400, "request_malformed")
            expect(answer.json.error.message).toContain("header")
          }
        }))

      it.effect("an unknown method answers 501; bytes that are not HTTP at all answer 400", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          expectRefusal(yield* exchange(port, "FOO /v1/payments HTTP/1.1\r\nHost: localhost\r\n\r\n"), 501, "method_not_supported")
          // A TLS ClientHello sent to the plain-HTTP port.
          const hello = Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a])
          expectRefusal(yield* exchange(port, hello), 400, "request_malformed")
          // A method Node knows but no route takes still reaches the router: 404 with the body.
          const known = yield* exchange(port, "PROPFIND /v1/payments HTTP/1.1\r\nHost: localhost\r\n\r\n")
          expectRefusal(known, 404, "route_not_found", { close: false })
        }))

      it.effect("a space or a control character in the path, or an unknown HTTP version, answers 400", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          for (const line of ["GET /v1/pay ments HTTP/1.1", "GET /v1/pay\x01ments HTTP/1.1", "GET /v1/payments HTTP/9.1"]) {
            const answer = yield* exchange(port, `${line}\r\nHost: localhost\r\n\r\n`)
            expectRefusal(answer, 400, "request_malformed")
          }
        }))

      it.effect("HTTP/1.1 without Host answers 400 naming Host; HTTP/1.0 may leave it out", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          const answer = yield* exchange(port, "GET /v1/payments HTTP/1.1\r\n\r\n")
          expectRefusal(answer, 400, "request_malformed", { close: false })
          expect(answer.json.error.param).toBe("Host")
          // An old health check: it gets as far as authentication.
          const old = yield* exchange(port, "GET /v1/payments HTTP/1.0\r\n\r\n")
          expect([old.status, old.json.error.code, old.json.error.request_id]).toEqual([401, "api_key_missing", old.headers["request-id"]])
        }))

      it.effect("a 20 KB query or header answers 431", () =>
        Effect.gen(function*() {
          const port = yield* portOf
          const long = "a".repeat(20_000)
          expectRefusal(yield* exchange(port, get(`/v1/payments?customer_id=${long}`)), 431, "headers_too_large")
          expectRefusal(yield* exchange(port, get("/v1/payments", `Host: localhost\r\nX-Padding: ${long}\r\n`)), 431, "headers_too_large")
          // Just under the limit is a request like any other.
          const under = yield* exchange(port, get(`/v1/payments?customer_id=${"a".repeat(15_000)}`))
          expect(under.status).toBe(401)
        }))

      it.effect("a chunked body over 1 MiB answers 413 with the error body, read by a client still sending it; the connection stays usable", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const port = Number(new URL(baseUrl).port)
          const head = "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n" +
            `Content-Type: application/json\r\nAuthorization: Bearer ${secret}\r\nIdempotency-Key: chunked-413\r\n\r\n`
          const answer = yield* exchange(port, [head, ...chunked(3 * 1024 * 1024)])
          expectRefusal(answer, 413, "payload_too_large", { close: false })
          // A client that asked to close after this request gets the answer before the close.
          for (let round = 0; round < 3; round++) {
            const closing = yield* exchange(port, [
              head.replace("Host: localhost\r\n", "Host: localhost\r\nConnection: close\r\n"),
              ...chunked(3 * 1024 * 1024)
            ])
            expectRefusal(closing, 413, "payload_too_large")
          }
          // The same for the PSP webhooks, whose body is read as bytes.
          const webhook = yield* exchange(port, [
            "POST /v1/provider-webhooks/pcn_x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
            ...chunked(2 * 1024 * 1024)
          ])
          expectRefusal(webhook, 413, "payload_too_large", { close: false })
          // Once the refused body is drained, the same connection serves the next request.
          const [refused, next] = yield* exchangeMany(port, [
            "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
            ...chunked(1024 * 1024 + 1),
            get("/v1/payments", `Host: localhost\r\nAuthorization: Bearer ${secret}\r\n`)
          ], 2)
          expect([refused!.status, next!.status, next!.json.object]).toEqual([413, 200, "list"])
        }))

      it.effect("a chunked body that breaks off into garbage answers 400, and the server goes on serving", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const port = Number(new URL(baseUrl).port)
          const answer = yield* exchange(port, [
            "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n" +
            `Authorization: Bearer ${secret}\r\nIdempotency-Key: chunked-garbage\r\n\r\n`,
            "5\r\n{\"amo\r\n",
            "zz\r\nnot a chunk\r\n\r\n"
          ])
          expectRefusal(answer, 400, "request_malformed")
          expect(answer.json.error.message).toContain("chunked")
          const after = yield* exchange(port, get("/v1/payments", `Host: localhost\r\nAuthorization: Bearer ${secret}\r\n`))
          expect([after.status, after.json.data]).toEqual([200, []])
        }))

      it.effect("a chunked body within 1 MiB is taken as any other", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const port = Number(new URL(baseUrl).port)
          const body = JSON.stringify({ amount: 1050, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } })
          const answer = yield* exchange(port, [
            "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n" +
            `Authorization: Bearer ${secret}\r\nIdempotency-Key: chunked-ok\r\n\r\n`,
            `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
          ])
          expect([answer.status, answer.json.status, answer.json.id]).toEqual([201, "succeeded", expect.stringMatching(/^pay_/)])
        }))
    }
  )

  layer(
    serverLayer(database.layer, { server: { headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 } }),
    { excludeTestServices: true, timeout: "120 seconds" }
  )(`requests that never finish arriving, on ${database.name}`, (it) => {
    it.effect("headers or a body that stop coming answer 408 with the error body", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        expectRefusal(yield* exchange(port, "GET /v1/payments HTTP/1.1\r\nHost: local"), 408, "request_timeout")
        expectRefusal(
          yield* exchange(port, "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"amount\":"),
          408,
          "request_timeout"
        )
      }))
  })
}
