import type { Currency } from "@orchestrator/core"
import { checkoutComSignature, checkoutComToken, connectorContract, type ContractRig, fakeCheckoutCom, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeCheckoutComConnector } from "../src/checkoutcom/Connector.js"
import { CheckoutComSettings } from "../src/checkoutcom/Settings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

const SIGNATURE_KEY = "whsk_checkout_contract_key"
const document = OpenApiContract.checkoutCom()
const TOKENS = { approved: "approved", declined: "declined", redirect: "threeds" } as const
/** Checkout.com's wire units over ours, for the currencies the contract sends (CLP: ISO 0, Checkout.com 2). */
const WIRE_FACTOR: Readonly<Record<string, number>> = { CLP: 100 }

connectorContract({
  name: "Checkout.com",
  start: Effect.gen(function*() {
    const fake = yield* fakeCheckoutCom
    const http = yield* fetchHttp
    const connector = makeCheckoutComConnector(
      http,
      pspContext({ type: "checkout_com", baseUrl: fake.url, credentials: { secret_key: "sk_sbox_contract0key" }, webhookSecret: SIGNATURE_KEY }),
      Schema.decodeUnknownSync(CheckoutComSettings)({ processing_channel_id: fake.processingChannelId, timeout_ms: 5_000 })
    )
    const paymentOf = (reference: string) => [...fake.payments.values()].find((payment) => payment.reference === reference)
    const rig: ContractRig = {
      connector,
      method: (outcome) => ({ type: "card", token: checkoutComToken(TOKENS[outcome]) }),
      declineCode: "card_declined",
      // The customer passes the issuer's page; our return page then asks GET /payments/{id}.
      completeRedirect: (url) => Effect.asVoid(Effect.promise(() => fetch(url, { redirect: "manual" }))),
      manualCapture: true,
      // No lookup by reference in this API: the resend under the same Cko-Idempotency-Key settles a lost answer.
      findsByReference: false,
      dropNextAnswer: fake.dropNextAnswer,
      paymentsFor: fake.paymentsFor,
      recordedAmount: (reference) => {
        const payment = paymentOf(reference)
        return payment === undefined ? null : payment.amount / (WIRE_FACTOR[payment.currency] ?? 1)
      },
      paymentWebhook: (id, { forged }) =>
        Effect.sync(() => {
          const body = fake.event("payment_approved", id)
          return {
            body: new TextEncoder().encode(body),
            headers: { "content-type": "application/json", "cko-signature": checkoutComSignature(forged ? "not our key" : SIGNATURE_KEY, body) }
          }
        }),
      violations: () =>
        fake.exchanges.flatMap((exchange) => {
          // GET /payments/{id} is oneOf a payment or a payout in the document, and a payment fits both: the payment's schema decides.
          const details = exchange.method === "GET" && /^\/payments\/[^/]+$/.test(exchange.url) && exchange.status === 200
          const answer = details
            ? document.checkSchema("components/schemas/PaymentDetails", JSON.parse(exchange.responseBody))
            : document.checkResponse(exchange)
          return [...document.checkRequest(exchange), ...answer].map((problem) => `${exchange.method} ${exchange.url}: ${problem}`)
        }),
      currencies: ["EUR", "JPY", "KWD", "CLP"].map((code) => code as Currency)
    }
    return rig
  }).pipe(Effect.orDie)
})
