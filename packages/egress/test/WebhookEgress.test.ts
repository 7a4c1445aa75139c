import { describe, expect, it } from "@effect/vitest"
import type { WebhookRequest } from "@orchestrator/core"
import { makeNodeWebhookSender } from "@orchestrator/webhook-sender"
import { Effect } from "effect"
import { answer, hang, localPeer, MEGABYTE, stream } from "./LocalPeers.js"

const delivery = (url: string, livemode: boolean): WebhookRequest => ({
  url,
  headers: { "content-type": "application/json", "service-signature": "t=1,v1=ab" },
  body: new TextEncoder().encode("{\"id\":\"evt_1\"}"),
  livemode
})

/** A test endpoint an attacker holding a test key points at the operator's network, in its written forms. */
const internalForms = (port: number) => [
  `http://2130706433:${port}/secret`,
  `http://0177.0.0.1:${port}/secret`,
  `http://0x7f.1:${port}/secret`,
  `http://[::ffff:127.0.0.1]:${port}/secret`,
  `http://[64:ff9b::7f00:1]:${port}/secret`,
  `http://localhost:${port}/secret`,
  `http://internal.rebind.test:${port}/secret`
]

const rebinding = async (hostname: string) =>
  hostname.endsWith(".rebind.test") ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "93.184.216.34", family: 4 }]

describe("webhook deliveries under the egress policy", () => {
  it.scopedLive("where the operator denies private addresses, no test-mode delivery reads the internal network, in any written form", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, "redis and metadata secrets"))
      const sender = makeNodeWebhookSender({ privateAddresses: "deny", resolve: rebinding })
      for (const url of internalForms(internal.port)) {
        const outcome = yield* sender.send(delivery(url, false))
        expect(outcome, url).toMatchObject({ _tag: "Unreachable", reason: expect.stringMatching(/private, loopback or link-local|localhost/) })
        expect(JSON.stringify(outcome)).not.toContain("secrets")
      }
      expect(internal.hits()).toBe(0)
    }))

  it.scopedLive("live mode reaches no private address and no plain http, whatever the operator allows", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, "internal"))
      const sender = makeNodeWebhookSender({ privateAddresses: "allow", resolve: rebinding })
      for (const url of [...internalForms(internal.port).map((url) => url.replace("http:", "https:")), `http://hooks.merchant.example:${internal.port}/`]) {
        expect((yield* sender.send(delivery(url, true)))._tag, url).toBe("Unreachable")
      }
      expect(internal.hits()).toBe(0)
      // Allowed for test mode, the same receiver is reached: a merchant developing on its own machine.
      expect(yield* sender.send(delivery(`http://internal.rebind.test:${internal.port}/`, false))).toMatchObject({ _tag: "Answered", status: 200 })
      expect(internal.hits()).toBe(1)
    }))

  it.scopedLive("a receiver streaming 500 MB: the first KiB is kept, reading stops and the socket is dropped", () =>
    Effect.gen(function*() {
      const flood = yield* localPeer(stream(500 * MEGABYTE))
      const outcome = yield* makeNodeWebhookSender().send(delivery(flood.url, false))
      expect(outcome).toEqual({ _tag: "Answered", status: 200, body: "a".repeat(1024) })
      expect(yield* Effect.promise(() => flood.allClosed(2_000))).toBe(true)
      expect(flood.written()).toBeLessThan(32 * MEGABYTE)
    }))

  it.scopedLive("a receiver that never answers is dropped at the deadline, its socket destroyed", () =>
    Effect.gen(function*() {
      const silent = yield* localPeer(hang)
      const started = Date.now()
      const outcome = yield* makeNodeWebhookSender({ deadlineMs: 400 }).send(delivery(silent.url, false))
      expect(outcome).toEqual({ _tag: "Unreachable", reason: "No complete answer within 400 ms." })
      expect(Date.now() - started).toBeLessThan(1_400)
      expect(yield* Effect.promise(() => silent.allClosed(1_000))).toBe(true)
    }))

  it.scopedLive("a redirect is the answer: its target, on the internal network, is never called", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, "internal"))
      const redirecting = yield* localPeer(answer(307, "", { location: `${internal.url}/secret` }))
      const outcome = yield* makeNodeWebhookSender().send(delivery(redirecting.url, false))
      expect(outcome).toEqual({ _tag: "Answered", status: 307, body: "" })
      expect(internal.hits()).toBe(0)
    }))
})
