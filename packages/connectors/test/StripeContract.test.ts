import type { Currency } from "@orchestrator/core"
import { connectorContract, type ContractRig, fakeStripe, OpenApiContract } from "@orchestrator/testing"
import { Clock, Effect, Schema } from "effect"
import { makeStripeConnector } from "../src/stripe/StripeConnector.js"
import { StripeSettings } from "../src/stripe/StripeSettings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

const WEBHOOK_SECRET = "whsec_stripe_contract"
const document = OpenApiContract.stripe()
const TOKENS = { approved: "pm_card_visa", declined: "pm_card_chargeDeclined", redirect: "pm_card_threeDSecure2Required" } as const

connectorContract({
  name: "Stripe",
  start: Effect.gen(function*() {
    const fake = yield* fakeStripe
    const http = yield* fetchHttp
    const connector = makeStripeConnector(
      http,
      pspContext({ type: "stripe", baseUrl: fake.url, credentials: { secret_key: "sk_test_51Contract" }, webhookSecret: WEBHOOK_SECRET }),
      Schema.decodeUnknownSync(StripeSettings)({ timeout_ms: 5_000 })
    )
    const intentOf = (reference: string) => [...fake.intents.values()].find((intent) => intent.metadata.reference === reference)
    const rig: ContractRig = {
      connector,
      method: (outcome) => ({ type: "card", token: TOKENS[outcome] }),
      declineCode: "card_declined",
      completeRedirect: (url) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((answer) => answer.text())).pipe(Effect.asVoid),
      manualCapture: true,
      dropNextAnswer: fake.dropNextAnswer,
      paymentsFor: fake.paymentsFor,
      // EUR, JPY and KWD are in ISO 4217 minor units on Stripe's wire too (ISK and HUF are not).
      recordedAmount: (reference) => intentOf(reference)?.amount ?? null,
      paymentWebhook: (id, { forged }) =>
        Effect.map(Clock.currentTimeMillis, (millis) => {
          const { body, signature } = fake.signedEvent(
            forged ? "whsec_not_ours" : WEBHOOK_SECRET,
            "payment_intent.succeeded",
            fake.intentObject(id),
            Math.floor(millis / 1000)
          )
          return { body: new TextEncoder().encode(body), headers: { "stripe-signature": signature, "content-type": "application/json" } }
        }),
      violations: () =>
        fake.exchanges.flatMap((exchange) =>
          [...document.checkRequest(exchange), ...document.checkResponse(exchange)].map((problem) => `${exchange.method} ${exchange.url}: ${problem}`)
        ),
      currencies: ["EUR", "JPY", "KWD"].map((code) => code as Currency)
    }
    return rig
  }).pipe(Effect.orDie)
})
