import type { Currency } from "@orchestrator/core"
import { connectorContract, type ContractRig, fakeMollie, minorOf, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeMollieConnector } from "../src/mollie/Connector.js"
import { MollieSettings } from "../src/mollie/Settings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

const document = OpenApiContract.mollie()
/** The fake's card tokens (Mollie Components tokens): paid at once, declined, or 3DS on Mollie's checkout. */
const TOKENS = { approved: "tkn_paid", declined: "tkn_declined", redirect: "tkn_3ds" } as const

connectorContract({
  name: "Mollie",
  start: Effect.gen(function*() {
    const fake = yield* fakeMollie
    const http = yield* fetchHttp
    const connector = makeMollieConnector(
      http,
      {
        ...pspContext({ type: "mollie", baseUrl: fake.url, credentials: { api_key: "test_ContractKey1234" }, webhookSecret: "" }),
        webhookUrl: "https://orchestrator.test/v1/provider-webhooks/pcn_mollie"
      },
      Schema.decodeUnknownSync(MollieSettings)({ timeout_ms: 5_000 })
    )
    const rig: ContractRig = {
      connector,
      method: (outcome) => ({ type: "card", token: TOKENS[outcome] }),
      declineCode: "card_declined",
      completeRedirect: (url) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((answer) => answer.text())).pipe(Effect.asVoid),
      manualCapture: true,
      dropNextAnswer: fake.dropNextAnswer,
      paymentsFor: (reference) => fake.paymentsWithReference(reference).length,
      // Mollie's wire amount is a decimal string; the fake reads it with the currency's decimals.
      recordedAmount: (reference) => {
        const payment = fake.paymentsWithReference(reference)[0]
        return payment === undefined ? null : minorOf(payment.amount) ?? null
      },
      // Mollie signs nothing: a forged webhook can only name a payment Mollie does not have.
      paymentWebhook: (id, { forged }) =>
        Effect.succeed({
          body: new TextEncoder().encode(fake.webhookBody(forged ? "tr_Forged0001" : id)),
          headers: { "content-type": "application/x-www-form-urlencoded" }
        }),
      violations: () =>
        fake.exchanges.flatMap((exchange) =>
          [...document.checkRequest(exchange), ...document.checkResponse(exchange)].map((problem) => `${exchange.method} ${exchange.url}: ${problem}`)
        ),
      // Mollie takes no three-decimal currency (KWD is refused before any call).
      currencies: ["EUR", "JPY", "GBP"].map((code) => code as Currency)
    }
    return rig
  }).pipe(Effect.orDie)
})
