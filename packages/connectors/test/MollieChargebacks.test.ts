import { describe, expect, it } from "@effect/vitest"
import { fakeMollie, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeMollieConnector } from "../src/mollie/Connector.js"
import { MollieSettings } from "../src/mollie/Settings.js"
import { authorizeWith, fetchHttp, pspContext } from "./pspFixtures.js"

const contract = OpenApiContract.mollie()
const webhook = (body: string) => ({ body: new TextEncoder().encode(body), headers: { "content-type": "application/x-www-form-urlencoded" } })

describe("Mollie's chargebacks, read through the payment's webhook, against a wire-level fake", () => {
  it.scoped("each chargeback is a lost dispute with its funds withdrawn, reversed it is won; one event per chargeback and state; no dispute operations", () =>
    Effect.gen(function*() {
      const fake = yield* fakeMollie
      const connector = yield* Effect.map(fetchHttp, (http) =>
        makeMollieConnector(
          http,
          { ...pspContext({ type: "mollie", baseUrl: fake.url, credentials: { api_key: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM" }, webhookSecret: "" }) },
          Schema.decodeUnknownSync(MollieSettings)({})
        ))
      const request = authorizeWith("tkn_paid")
      const paid = yield* connector.authorize(request)
      if (paid._tag !== "Authorized") return expect.fail(paid._tag)
      const disputesOf = Effect.map(
        connector.verifyWebhook(webhook(fake.webhookBody(paid.pspPaymentId))),
        (events) => events.flatMap((event) => event._tag === "DisputeUpdated" ? [event] : [])
      )
      expect(yield* disputesOf).toEqual([])

      const full = fake.chargeBack(paid.pspPaymentId, {
        at: "2026-11-20T10:00:00+00:00",
        reason: { code: "MD06", description: "Refund request by end customer" }
      })
      const part = fake.chargeBack(paid.pspPaymentId, { minor: 300, at: "2026-11-21T10:00:00+00:00" })
      const [first, second] = yield* disputesOf
      expect(first).toEqual({
        _tag: "DisputeUpdated",
        eventId: `${full.id}:charged_back`,
        fact: {
          pspDisputeId: full.id,
          reference: request.reference,
          pspPaymentId: paid.pspPaymentId,
          status: "lost",
          stage: "chargeback",
          amount: 1050,
          currency: "EUR",
          reason: "general",
          reasonCode: "MD06",
          evidenceDueByMillis: null,
          fee: null,
          occurredAtMillis: Date.parse("2026-11-20T10:00:00Z")
        }
      })
      expect(second!.fact).toMatchObject({ pspDisputeId: part.id, amount: 300, reason: "general", reasonCode: null })
      // The same state told again is the same event id (stored once); reversed, it is new news of the same dispute.
      fake.reverseChargeback(full.id, "2026-11-25T10:00:00+00:00")
      const [reversed] = yield* disputesOf
      expect(reversed).toMatchObject({
        eventId: `${full.id}:reversed`,
        fact: { pspDisputeId: full.id, status: "won", occurredAtMillis: Date.parse("2026-11-25T10:00:00Z") }
      })
      // Read only: Mollie takes no evidence through its API.
      expect(connector.disputes).toBeUndefined()
      for (const exchange of fake.exchanges) {
        expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
        expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
      }
    }))
})
