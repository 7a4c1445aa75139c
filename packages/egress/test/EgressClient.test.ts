import { describe, expect, it } from "@effect/vitest"
import { type EgressAccess, EgressFailure, pspAccess, webhookAccess } from "@orchestrator/core"
import { Effect, Either } from "effect"
import { type EgressRequest, makeEgressClient } from "../src/EgressClient.js"
import { answer, hang, localPeer, MEGABYTE, stream } from "./LocalPeers.js"

const LIVE = pspAccess({ livemode: true, liveHosts: undefined, privateAddresses: "allow" })
const TEST_DENIED = pspAccess({ livemode: false, liveHosts: undefined, privateAddresses: "deny" })
const TEST_ALLOWED = pspAccess({ livemode: false, liveHosts: undefined, privateAddresses: "allow" })

const call = (url: string, access: EgressAccess, extra: Partial<EgressRequest> = {}): EgressRequest => ({
  method: "POST",
  url,
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode("{\"amount\":1050}"),
  access,
  deadlineMs: 5_000,
  answerLimit: { bytes: MEGABYTE, beyond: "fail" },
  ...extra
})

const failureOf = <A>(effect: Effect.Effect<A, EgressFailure>) =>
  Effect.map(Effect.either(effect), Either.match({ onLeft: (failure) => failure, onRight: () => undefined }))

/** Every way of writing this machine's loopback address into a URL that WHATWG URL accepts. */
const loopbackForms = (port: number, scheme: "http" | "https") => [
  `${scheme}://2130706433:${port}/`, // decimal
  `${scheme}://0177.0.0.1:${port}/`, // octal
  `${scheme}://017700000001:${port}/`, // octal, one number
  `${scheme}://0x7f.1:${port}/`, // hex, short
  `${scheme}://0x7f000001:${port}/`, // hex, one number
  `${scheme}://127.1:${port}/`,
  `${scheme}://[::ffff:127.0.0.1]:${port}/`, // IPv4-mapped
  `${scheme}://[::ffff:7f00:1]:${port}/`,
  `${scheme}://[64:ff9b::127.0.0.1]:${port}/`, // NAT64
  `${scheme}://[::1]:${port}/`,
  `${scheme}://localhost:${port}/`
]

describe("the egress client, against local peers", () => {
  it.scopedLive("refuses every written form of a loopback address before connecting, in live mode and where the operator denies private addresses", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, "internal secrets"))
      const client = makeEgressClient()
      for (
        const [access, scheme] of [[LIVE, "https"], [TEST_DENIED, "https"], [webhookAccess({ livemode: false, privateAddresses: "deny" }), "http"]] as const
      ) {
        for (const url of loopbackForms(internal.port, scheme)) {
          expect(yield* failureOf(client.send(call(url, access))), url).toMatchObject({ sent: false, code: "EGRESS_REFUSED" })
        }
      }
      expect(internal.hits()).toBe(0)
      // The same forms are this very machine: allowed, they reach it (so the refusals above refused something).
      for (const url of loopbackForms(internal.port, "http").filter((url) => !url.includes("64:ff9b") && !url.includes("[::1]"))) {
        const reached = yield* client.send(call(url, TEST_ALLOWED))
        expect([url, reached.status, new TextDecoder().decode(reached.body)]).toEqual([url, 200, "internal secrets"])
      }
      expect(internal.hits()).toBe(9)
      client.close()
    }))

  it.scopedLive("checks the addresses a name resolves to when the socket connects: a public-looking name resolving to loopback (DNS rebinding) reaches nothing", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, "internal secrets"))
      const client = makeEgressClient({
        resolve: async (hostname) =>
          hostname === "psp.rebind.test"
            ? [{ address: "127.0.0.1", family: 4 }]
            : [{ address: "169.254.169.254", family: 4 }, { address: "::ffff:10.0.0.1", family: 6 }]
      })
      for (const access of [LIVE, TEST_DENIED]) {
        for (const host of ["psp.rebind.test", "metadata.rebind.test"]) {
          const failure = yield* failureOf(client.send(call(`https://${host}:${internal.port}/v1/payments`, access)))
          expect(failure).toMatchObject({
            sent: false,
            code: "EGRESS_REFUSED",
            message: expect.stringContaining("resolves only to private, loopback or link-local addresses")
          })
        }
      }
      expect(internal.hits()).toBe(0)
      const allowed = yield* client.send(call(`http://psp.rebind.test:${internal.port}/v1/payments`, TEST_ALLOWED))
      expect(allowed.status).toBe(200)
      expect(internal.hits()).toBe(1)
      client.close()
    }))

  it.scopedLive("never follows a redirect: the 3xx is the answer and its target is never called", () =>
    Effect.gen(function*() {
      const target = yield* localPeer(answer(200, "followed"))
      const client = makeEgressClient()
      for (const status of [301, 302, 303, 307, 308]) {
        const redirecting = yield* localPeer(answer(status, "", { location: `${target.url}/elsewhere` }))
        const reached = yield* client.send(call(`${redirecting.url}/v1/payments`, TEST_ALLOWED))
        expect([reached.status, reached.headers.location]).toEqual([status, `${target.url}/elsewhere`])
        expect(redirecting.hits()).toBe(1)
      }
      expect(target.hits()).toBe(0)
      client.close()
    }))

  it.scopedLive("one deadline covers the call: a peer that never answers is dropped when it passes, the socket destroyed", () =>
    Effect.gen(function*() {
      const silent = yield* localPeer(hang)
      const client = makeEgressClient()
      const started = Date.now()
      const failure = yield* failureOf(client.send(call(silent.url, TEST_ALLOWED, { deadlineMs: 500, connectTimeoutMs: 200 })))
      const elapsed = Date.now() - started
      // The request reached the peer: whatever it did with it is unknown.
      expect(failure).toMatchObject({ sent: true, code: "EGRESS_DEADLINE" })
      expect(elapsed).toBeGreaterThanOrEqual(490)
      expect(elapsed).toBeLessThan(1_500)
      expect(silent.hits()).toBe(1)
      expect(yield* Effect.promise(() => silent.allClosed(1_000))).toBe(true)
      client.close()
    }))

  it.scopedLive("an interrupted call (the caller's own timeout) destroys its socket at once, without waiting for the peer", () =>
    Effect.gen(function*() {
      const silent = yield* localPeer(hang)
      const client = makeEgressClient()
      const started = Date.now()
      const outcome = yield* Effect.timeoutOption(client.send(call(silent.url, TEST_ALLOWED, { deadlineMs: 60_000 })), "300 millis")
      expect(outcome._tag).toBe("None")
      expect(Date.now() - started).toBeLessThan(1_300)
      expect(yield* Effect.promise(() => silent.allClosed(1_000))).toBe(true)
      client.close()
    }))

  it.scopedLive("a peer streaming 500 MB: reading stops at the cap and the socket is destroyed, so what the peer got out stays near the cap", () =>
    Effect.gen(function*() {
      const client = makeEgressClient()
      const flood = yield* localPeer(stream(500 * MEGABYTE))
      const failure = yield* failureOf(client.send(call(flood.url, TEST_ALLOWED)))
      expect(failure).toMatchObject({ sent: true, code: "EGRESS_ANSWER_TOO_LARGE" })
      expect(yield* Effect.promise(() => flood.allClosed(2_000))).toBe(true)
      // The cap and what the two kernels' socket buffers hold: far from 500 MB.
      expect(flood.written()).toBeGreaterThan(MEGABYTE)
      expect(flood.written()).toBeLessThan(32 * MEGABYTE)

      // Kept rather than failed (webhook answers): the first KiB, then the same stop.
      const again = yield* localPeer(stream(500 * MEGABYTE))
      const kept = yield* client.send(call(again.url, TEST_ALLOWED, { answerLimit: { bytes: 1024, beyond: "truncate" } }))
      expect([kept.status, kept.body.byteLength]).toEqual([200, 1024])
      expect(yield* Effect.promise(() => again.allClosed(2_000))).toBe(true)
      expect(again.written()).toBeLessThan(32 * MEGABYTE)

      // Announced in Content-Length: refused before its body is read.
      const announced = yield* localPeer(stream(500 * MEGABYTE, true))
      expect(yield* failureOf(client.send(call(announced.url, TEST_ALLOWED)))).toMatchObject({ code: "EGRESS_ANSWER_TOO_LARGE" })
      expect(announced.written()).toBeLessThan(32 * MEGABYTE)
      client.close()
    }))

  it.scopedLive("a refused connection sent nothing; an answer within the cap is read whole, and the connection kept for the next call", () =>
    Effect.gen(function*() {
      const client = makeEgressClient()
      const gone = yield* localPeer(hang)
      yield* Effect.async<void>((resume) => {
        gone.server.close(() => resume(Effect.void))
      })
      expect(yield* failureOf(client.send(call(gone.url, TEST_ALLOWED)))).toMatchObject({ sent: false, code: "ECONNREFUSED" })
      const psp = yield* localPeer(answer(200, JSON.stringify({ id: "pi_1", padding: "x".repeat(MEGABYTE - 100) })))
      const first = yield* client.send(call(psp.url, TEST_ALLOWED))
      expect(JSON.parse(new TextDecoder().decode(first.body)).id).toBe("pi_1")
      expect((yield* client.send(call(psp.url, TEST_ALLOWED))).status).toBe(200)
      client.close()
    }))
})
