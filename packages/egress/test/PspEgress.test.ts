import { describe, expect, it } from "@effect/vitest"
import { AdyenSettings, makeAdyenConnector, makeStripeConnector, PspHttp, StripeSettings } from "@orchestrator/connectors"
import { PspHttpNode } from "@orchestrator/connectors/node"
import type { AuthorizeRequest, ConnectorError, Currency, PaymentConnector, PrivateAddresses } from "@orchestrator/core"
import { fakeAdyen, fakeStripe, testConnection } from "@orchestrator/testing"
import { Effect, Either, Redacted, Schema } from "effect"
import type { Resolve } from "../src/EgressClient.js"
import { answer, hang, localPeer, MEGABYTE, stream } from "./LocalPeers.js"

/** The Node transport as the application builds it, under the operator's setting (and, for rebinding, a resolver). */
const nodeHttp = (privateAddresses: PrivateAddresses, resolve?: Resolve) =>
  Effect.provide(PspHttp, PspHttpNode({ privateAddresses, ...(resolve === undefined ? {} : { resolve }) }))

const context = (type: string, baseUrl: string | null, livemode: boolean, credentials: Record<string, string>) => ({
  connection: testConnection({ id: `pcn_${type}`, name: `${type}_eu`, type, base_url: baseUrl, livemode }),
  credentials: Effect.succeed(Redacted.make(credentials)),
  webhookSecret: Effect.succeed(Redacted.make("whsec_x")),
  publicBaseUrl: "https://orchestrator.test"
})

type Psp = "stripe" | "adyen"

/** A connector of `type` on `baseUrl`, over the Node transport; `settings` as the connection saved them. */
const connector = (
  type: Psp,
  options: {
    readonly baseUrl: string | null
    readonly livemode?: boolean
    readonly privateAddresses: PrivateAddresses
    readonly resolve?: Resolve
    readonly merchantAccount?: string
    readonly settings?: Record<string, unknown>
  }
) =>
  Effect.map(nodeHttp(options.privateAddresses, options.resolve), (http): PaymentConnector => {
    const livemode = options.livemode ?? false
    return type === "stripe"
      ? makeStripeConnector(
        http,
        context("stripe", options.baseUrl, livemode, { secret_key: livemode ? "sk_live_51Egress" : "sk_test_51Egress" }),
        Schema.decodeUnknownSync(StripeSettings)(options.settings ?? {})
      )
      : makeAdyenConnector(
        http,
        context("adyen", options.baseUrl, livemode, { api_key: "AQE_egress", merchant_account: options.merchantAccount ?? "EgressECOM" }),
        Schema.decodeUnknownSync(AdyenSettings)(options.settings ?? {})
      )
  })

let counter = 0
const authorize = (token: string): AuthorizeRequest => ({
  reference: `att_egress${counter++}`,
  paymentId: "pay_1",
  amount: 1050,
  currency: "EUR" as Currency,
  paymentMethod: { type: "card", token },
  capture: true,
  returnUrl: "https://orchestrator.test/v1/payments/pay_1/return",
  description: null,
  customer: { id: "cus_1", email: null, name: null },
  browser: null,
  offSession: false,
  storedCredential: "none"
})

const failureOf = (effect: Effect.Effect<unknown, ConnectorError>) =>
  Effect.map(Effect.either(effect), Either.match({ onLeft: (error) => error as { _tag: string; reason?: string }, onRight: () => undefined }))

/** Loopback for every name, as DNS rebinding (or a poisoned resolver) would have it. */
const toLoopback: Resolve = async () => [{ address: "127.0.0.1", family: 4 }]

describe("PSP connectors through the Node egress client", () => {
  it.scopedLive("test mode, private addresses allowed: payments reach local fakes of Stripe and Adyen and are read as before", () =>
    Effect.gen(function*() {
      const stripe = yield* fakeStripe
      const adyen = yield* fakeAdyen
      const viaStripe = yield* connector("stripe", { baseUrl: stripe.url, privateAddresses: "allow" })
      expect(yield* viaStripe.authorize(authorize("pm_card_visa"))).toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: 1050 })
      const viaAdyen = yield* connector("adyen", { baseUrl: adyen.url, privateAddresses: "allow", merchantAccount: adyen.merchantAccount })
      expect(yield* viaAdyen.authorize(authorize("visa_ok"))).toMatchObject({ _tag: "Authorized" })
    }))

  it.scopedLive("test mode, private addresses denied: a base_url on this machine fails as unavailable and nothing reaches it", () =>
    Effect.gen(function*() {
      const stripe = yield* fakeStripe
      const adyen = yield* fakeAdyen
      for (const [type, url] of [["stripe", stripe.url], ["adyen", adyen.url], ["stripe", stripe.url.replace("127.0.0.1", "2130706433")]] as const) {
        const psp = yield* connector(type, { baseUrl: url, privateAddresses: "deny" })
        expect(yield* failureOf(psp.authorize(authorize(type === "stripe" ? "pm_card_visa" : "visa_ok"))), url).toMatchObject({ _tag: "ConnectorUnavailable" })
      }
      // Public names resolving here are refused when the socket connects.
      const rebound = yield* connector("stripe", { baseUrl: "https://stripe-mock.example", privateAddresses: "deny", resolve: toLoopback })
      expect(yield* failureOf(rebound.authorize(authorize("pm_card_visa")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: expect.stringContaining("resolves only to private, loopback or link-local addresses")
      })
      expect([stripe.exchanges.length, adyen.exchanges.length]).toEqual([0, 0])
    }))

  it.scopedLive("live mode: only the PSP's documented hosts on public addresses, whatever the operator allows; a saved URL now forbidden fails as unavailable, nothing sent", () =>
    Effect.gen(function*() {
      const internal = yield* localPeer(answer(200, JSON.stringify({ id: "pi_internal", status: "succeeded" })))
      const cases: ReadonlyArray<readonly [Psp, string]> = [
        ["stripe", internal.url],
        ["stripe", `https://127.0.0.1:${internal.port}`],
        ["stripe", "https://169.254.169.254"],
        ["stripe", "https://psp-proxy.example"],
        ["adyen", `https://0x7f.1:${internal.port}/checkout`],
        ["adyen", "https://adyen.com.evil.example/checkout"],
        // The documented hosts themselves, resolving to this machine: refused at connect time.
        ["stripe", `https://api.stripe.com:${internal.port}`],
        ["adyen", `https://acme-checkout-live.adyenpayments.com:${internal.port}/checkout`],
        ["adyen", `https://checkout-live.adyen.com:${internal.port}/checkout`]
      ]
      for (const [type, url] of cases) {
        const psp = yield* connector(type, { baseUrl: url, livemode: true, privateAddresses: "allow", resolve: toLoopback })
        expect(yield* failureOf(psp.authorize(authorize("pm_card_visa"))), url).toMatchObject({ _tag: "ConnectorUnavailable" })
      }
      expect(internal.hits()).toBe(0)
      // Checked on the URL before anything is resolved: a host that is not the PSP's goes nowhere.
      const proxy = yield* connector("stripe", { baseUrl: "https://psp-proxy.example", livemode: true, privateAddresses: "allow" })
      expect(yield* failureOf(proxy.authorize(authorize("pm_card_visa")))).toMatchObject({
        _tag: "ConnectorUnavailable",
        reason: expect.stringContaining("psp-proxy.example is not among the hosts allowed here (api.stripe.com, files.stripe.com)")
      })
    }))

  for (const type of ["stripe", "adyen"] as const) {
    it.scopedLive(`${type}: a PSP that never answers ends the call at timeout_ms as an unknown outcome, its socket destroyed`, () =>
      Effect.gen(function*() {
        const silent = yield* localPeer(hang)
        const psp = yield* connector(type, { baseUrl: silent.url, privateAddresses: "allow", settings: { timeout_ms: 1_000 } })
        const started = Date.now()
        const failure = yield* failureOf(psp.authorize(authorize("pm_card_visa")))
        expect(failure).toMatchObject({ _tag: "ConnectorOutcomeUnknown" })
        // The bound: within timeout_ms and a second.
        expect(Date.now() - started).toBeLessThan(2_000)
        expect(silent.hits()).toBe(1)
        expect(yield* Effect.promise(() => silent.allClosed(1_000))).toBe(true)
      }))

    it.scopedLive(`${type}: a PSP answering 500 MB is cut off past 1 MiB, an unknown outcome, and little of it ever left the PSP`, () =>
      Effect.gen(function*() {
        const flood = yield* localPeer(stream(500 * MEGABYTE))
        const psp = yield* connector(type, { baseUrl: flood.url, privateAddresses: "allow" })
        expect(yield* failureOf(psp.authorize(authorize("pm_card_visa")))).toMatchObject({ _tag: "ConnectorOutcomeUnknown" })
        expect(yield* Effect.promise(() => flood.allClosed(2_000))).toBe(true)
        expect(flood.written()).toBeLessThan(32 * MEGABYTE)
      }))

    it.scopedLive(`${type}: a redirect is not followed: the request is never sent on to its target`, () =>
      Effect.gen(function*() {
        const target = yield* localPeer(answer(200, JSON.stringify({ id: "pi_elsewhere", status: "succeeded" })))
        const redirecting = yield* localPeer(answer(307, "", { location: `${target.url}/v1/payment_intents` }))
        const psp = yield* connector(type, { baseUrl: redirecting.url, privateAddresses: "allow" })
        const outcome = yield* Effect.either(psp.authorize(authorize("pm_card_visa")))
        // Whatever the connector makes of a 3xx, it is not the target's "succeeded".
        expect(Either.isRight(outcome) && outcome.right._tag === "Authorized").toBe(false)
        expect([redirecting.hits(), target.hits()]).toEqual([1, 0])
      }))
  }

  it.scopedLive("a PSP refusing the connection is unavailable: nothing was sent", () =>
    Effect.gen(function*() {
      const gone = yield* localPeer(hang)
      yield* Effect.async<void>((resume) => {
        gone.server.close(() => resume(Effect.void))
      })
      const psp = yield* connector("stripe", { baseUrl: gone.url, privateAddresses: "allow" })
      expect(yield* failureOf(psp.authorize(authorize("pm_card_visa")))).toMatchObject({ _tag: "ConnectorUnavailable" })
    }))
})
