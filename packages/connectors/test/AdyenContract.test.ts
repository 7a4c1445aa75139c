import type { Currency } from "@orchestrator/core"
import { connectorContract, type ContractRig, fakeAdyen, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeAdyenConnector } from "../src/adyen/AdyenConnector.js"
import { AdyenSettings } from "../src/adyen/AdyenSettings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

/** An HMAC key as Adyen's Customer Area shows it: 64 hex characters. */
const HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const NOT_OUR_KEY = "0000000000000000000000000000000000000000000000000000000000000000"
/** Adyen's published documents: Checkout's, and the Disputes API's for calls under its path. */
const checkout = OpenApiContract.adyenCheckout()
const disputes = OpenApiContract.adyenDisputes()
const documentOf = (url: string) => url.startsWith("/ca/services/DisputeService/") ? disputes : checkout
/** The fake's stored card ids, as Adyen's test cards decide outcomes. */
const CARDS = { approved: "visa_ok", declined: "visa_refused", redirect: "visa_3ds" } as const

const visit = (url: string) => Effect.promise(() => fetch(url, { redirect: "manual" }))

connectorContract({
  name: "Adyen",
  start: Effect.gen(function*() {
    const fake = yield* fakeAdyen
    const http = yield* fetchHttp
    const connector = makeAdyenConnector(
      http,
      pspContext({
        type: "adyen",
        baseUrl: fake.url,
        credentials: { api_key: "AQEcontract", merchant_account: fake.merchantAccount },
        webhookSecret: HMAC_KEY
      }),
      Schema.decodeUnknownSync(AdyenSettings)({ timeout_ms: 5_000 })
    )
    const paymentOf = (reference: string) => [...fake.payments.values()].find((payment) => payment.reference === reference)
    const rig: ContractRig = {
      connector,
      method: (outcome) => ({ type: "card", token: CARDS[outcome] }),
      declineCode: "card_declined",
      completeRedirect: (url) => Effect.asVoid(visit(url)),
      // Adyen finishes a redirect with /payments/details and the shopper's redirectResult; it has no lookup.
      completeRedirectReturning: (url) => Effect.map(visit(url), (answer) => Object.fromEntries(new URL(answer.headers.get("location")!).searchParams)),
      manualCapture: true,
      captureSettlesLater: true,
      findsByReference: false,
      dropNextAnswer: fake.dropNextAnswer,
      paymentsFor: fake.paymentsFor,
      // EUR, JPY and KWD are in ISO 4217 minor units on Adyen's wire too (CLP and ISK are not).
      recordedAmount: (reference) => paymentOf(reference)?.amount.value ?? null,
      paymentWebhook: (id, { forged }) =>
        Effect.succeed({
          body: new TextEncoder().encode(fake.notification(forged ? NOT_OUR_KEY : HMAC_KEY, [fake.authorisation(id, true)])),
          headers: { "content-type": "application/json" }
        }),
      violations: () =>
        fake.exchanges.flatMap((exchange) =>
          [...documentOf(exchange.url).checkRequest(exchange), ...documentOf(exchange.url).checkResponse(exchange)].map((problem) =>
            `${exchange.method} ${exchange.url}: ${problem}`
          )
        ),
      currencies: ["EUR", "JPY", "KWD"].map((code) => code as Currency)
    }
    return rig
  }).pipe(Effect.orDie)
})
