import { describe, expect, it } from "@effect/vitest"
import { type FakeCheckoutCom, fakeCheckoutCom, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeCheckoutComConnector } from "../src/checkoutcom/Connector.js"
import { CheckoutComSettings } from "../src/checkoutcom/Settings.js"
import { authorizeVaulted, fetchHttp, merchantInitiated, pspContext, revealedCard } from "./pspFixtures.js"

const contract = OpenApiContract.checkoutCom()
const lastBody = (fake: FakeCheckoutCom) => JSON.parse(fake.exchanges.at(-1)!.body)

describe("Checkout.com and stored card details from the service's vault", () => {
  it.scoped("a vaulted card: scheme_id is read; a merchant-initiated charge names it as previous_payment_id of stored card details, no CVV", () =>
    Effect.gen(function*() {
      const fake = yield* fakeCheckoutCom
      const connector = makeCheckoutComConnector(
        yield* fetchHttp,
        pspContext({ type: "checkout_com", baseUrl: fake.url, credentials: { secret_key: "sk_sbox_stored0key" }, webhookSecret: "whsk_stored" }),
        Schema.decodeUnknownSync(CheckoutComSettings)({ processing_channel_id: fake.processingChannelId })
      )
      const request = authorizeVaulted(revealedCard())
      const first = yield* connector.authorize(request)
      const schemeId = JSON.parse(fake.exchanges.at(-1)!.responseBody).scheme_id
      expect(schemeId).toMatch(/^\d{15}$/)
      expect(first).toMatchObject({ _tag: "Authorized", networkTransactionId: schemeId })
      // The payment's details (a status sync) tell the same id.
      const pspPaymentId = first._tag === "Authorized" ? first.pspPaymentId : null
      expect(yield* connector.syncPayment({ pspPaymentId, reference: request.reference })).toMatchObject({ networkTransactionId: schemeId })
      const firstBody = JSON.parse(fake.exchanges.find((exchange) => exchange.method === "POST")!.body)
      expect(firstBody).not.toHaveProperty("previous_payment_id")
      expect(firstBody.source).not.toHaveProperty("stored")

      expect(yield* connector.authorize(merchantInitiated("483297487231504"))).toMatchObject({ _tag: "Authorized" })
      expect(lastBody(fake)).toMatchObject({
        payment_type: "Recurring",
        merchant_initiated: true,
        previous_payment_id: "483297487231504",
        source: { type: "card", stored: true }
      })
      expect(lastBody(fake).source).not.toHaveProperty("cvv")
      for (const exchange of fake.exchanges) {
        // GET /payments/{id} is answered oneOf a payment or a payout, which a payment's details both fit: the payment's schema must hold.
        const answer = exchange.method === "GET"
          ? contract.checkSchema("components/schemas/PaymentDetails", JSON.parse(exchange.responseBody))
          : contract.checkResponse(exchange)
        expect([exchange.url, contract.checkRequest(exchange), answer]).toEqual([exchange.url, [], []])
      }
    }))
})
