import { HttpApp, HttpRouter } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { AuthorizeRequest } from "@orchestrator/core"
import { Effect } from "effect"
import { SandboxChallengeRoutes } from "../src/sandbox/SandboxChallenge.js"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { authorizeRequest, BASE_URL, chargeOf, RETURN_URL, sandbox, withLedger } from "./fixtures.js"

/**
 * The challenge routes served in-process, as the HTTP app mounts them (with the ledger provided to the
 * router), answering web `Request`s with web `Response`s.
 */
const browser = Effect.map(SandboxLedger, (ledger) => {
  const handler = HttpApp.toWebHandler(SandboxChallengeRoutes.pipe(HttpRouter.provideService(SandboxLedger, ledger)))
  const send = (method: "GET" | "POST", path: string) =>
    Effect.promise(async () => {
      const response = await handler(
        new Request(
          `${BASE_URL}${path}`,
          method === "POST"
            ? { method, body: "", headers: { "content-type": "application/x-www-form-urlencoded" } }
            : { method }
        )
      )
      return {
        status: response.status,
        contentType: response.headers.get("content-type"),
        location: response.headers.get("location"),
        body: await response.text()
      }
    })
  return { get: (path: string) => send("GET", path), post: (path: string) => send("POST", path) }
})

/** Starts a 3DS payment and returns its charge id and the path of its challenge page. */
const challenged = (extra: Partial<AuthorizeRequest> = {}) =>
  Effect.gen(function*() {
    const { connector } = yield* sandbox()
    const outcome = yield* connector.authorize(authorizeRequest("tok_threeDSecureRequired", extra))
    if (outcome._tag !== "ActionRequired") throw new Error(`expected ActionRequired, got ${outcome._tag}`)
    const path = new URL(outcome.redirectUrl).pathname
    return { connector, chargeId: outcome.pspPaymentId, path }
  })

describe("SandboxChallengeRoutes", () => {
  it.effect("the redirect URL shows the challenge with the amount and both buttons", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, path } = yield* challenged()
      const page = yield* (yield* browser).get(path)
      expect(page.status).toBe(200)
      expect(page.contentType).toContain("text/html")
      expect(page.body).toContain("10.50 EUR")
      expect(page.body).toContain("Complete")
      expect(page.body).toContain(`action="/sandbox/3ds/${chargeId}/complete"`)
      expect(page.body).toContain(`action="/sandbox/3ds/${chargeId}/fail"`)
    })))

  it.effect("shows amounts in the currency's own minor units", () =>
    withLedger(Effect.gen(function*() {
      const { path } = yield* challenged({ amount: 5, currency: "JPY" as AuthorizeRequest["currency"] })
      expect((yield* (yield* browser).get(path)).body).toContain("<strong>5 JPY</strong>")
    })))

  it.effect("an unknown challenge is a 404", () =>
    withLedger(Effect.gen(function*() {
      const web = yield* browser
      expect((yield* web.get("/sandbox/3ds/ch_missing")).status).toBe(404)
      expect((yield* web.post("/sandbox/3ds/ch_missing/complete")).status).toBe(404)
    })))

  it.effect("completing it captures the charge and sends the customer back to the return URL", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, connector, path } = yield* challenged()
      const answer = yield* (yield* browser).post(`${path}/complete`)
      expect(answer.status).toBe(303)
      expect(answer.location).toBe(RETURN_URL)
      const stored = yield* chargeOf(chargeId)
      expect([stored.status, stored.amountCaptured]).toEqual(["succeeded", 1050])
      expect(yield* connector.syncPayment({ reference: "att_1", pspPaymentId: chargeId }))
        .toMatchObject({ _tag: "Authorized", captured: true, pspPaymentId: chargeId })
    })))

  it.effect("completing it for an authorization-only payment leaves it authorized", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, path } = yield* challenged({ capture: false })
      expect((yield* (yield* browser).post(`${path}/complete`)).status).toBe(303)
      const stored = yield* chargeOf(chargeId)
      expect([stored.status, stored.amountCaptured]).toEqual(["authorized", 0])
    })))

  it.effect("failing it fails the charge with authentication_failed", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, connector, path } = yield* challenged()
      const answer = yield* (yield* browser).post(`${path}/fail`)
      expect([answer.status, answer.location]).toEqual([303, RETURN_URL])
      const stored = yield* chargeOf(chargeId)
      expect([stored.status, stored.failureCode]).toEqual(["failed", "authentication_failed"])
      const outcome = yield* connector.syncPayment({ reference: "att_1", pspPaymentId: null })
      expect(outcome).toMatchObject({ _tag: "Refused", code: "authentication_failed", retryable: false })
    })))

  it.effect("a finished challenge cannot be replayed the other way", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, path } = yield* challenged()
      const web = yield* browser
      yield* web.post(`${path}/fail`)
      const again = yield* web.post(`${path}/complete`)
      expect([again.status, again.location]).toEqual([303, RETURN_URL])
      expect((yield* chargeOf(chargeId)).status).toBe("failed")

      const page = yield* web.get(path)
      expect(page.status).toBe(200)
      expect(page.body).toContain("already over (failed)")
      expect(page.body).not.toContain("/complete")
    })))

  it.effect("an unknown result is a 404 and leaves the charge alone", () =>
    withLedger(Effect.gen(function*() {
      const { chargeId, path } = yield* challenged()
      expect((yield* (yield* browser).post(`${path}/maybe`)).status).toBe(404)
      expect((yield* chargeOf(chargeId)).status).toBe("requires_action")
    })))
})
