import { type Currency, exponentOf } from "@orchestrator/core"
import { connectorContract, type ContractRig, fakePayPal, OpenApiContract, type RecordedExchange } from "@orchestrator/testing"
import { Effect } from "effect"
import { paypal, WEBHOOK_ID } from "./paypalFixtures.js"

const documents = { orders: OpenApiContract.paypalOrders(), payments: OpenApiContract.paypalPayments(), webhooks: OpenApiContract.paypalWebhooks() }

/** The exchange's violations of PayPal's documents; the OAuth2 token call (in none of them) of its guide. */
const violationsOf = (exchange: RecordedExchange): ReadonlyArray<string> => {
  const document = exchange.url.startsWith("/v2/checkout/")
    ? documents.orders
    : exchange.url.startsWith("/v2/payments/")
    ? documents.payments
    : exchange.url.startsWith("/v1/notifications/")
    ? documents.webhooks
    : undefined
  if (document === undefined) {
    return exchange.url === "/v1/oauth2/token" && exchange.body === "grant_type=client_credentials" &&
        exchange.headers.authorization?.startsWith("Basic ") === true
      ? []
      : ["not a documented call"]
  }
  return [...document.checkRequest(exchange), ...document.checkResponse(exchange)]
}

/** A PayPal decimal string in ISO minor units, read here from the wire, not by the connector's code. */
const minorUnits = (money: { currency_code: string; value: string }) => {
  const [whole, fraction = ""] = money.value.split(".")
  const exponent = exponentOf(money.currency_code as Currency)
  return Number(`${whole}${fraction.padEnd(exponent, "0").slice(0, exponent)}`)
}

connectorContract({
  name: "PayPal",
  start: Effect.gen(function*() {
    const fake = yield* fakePayPal
    const connector = yield* paypal(fake, { webhook_id: WEBHOOK_ID, timeout_ms: 5_000 })
    const orderOf = (reference: string) => [...fake.orders.values()].find((order) => order.customId === reference)
    const rig: ContractRig = {
      connector,
      // A payer PayPal will not let pay: the order is refused as it is created.
      method: (outcome) => {
        if (outcome === "declined") fake.injectFault({ status: 422, issue: "PAYER_CANNOT_PAY" })
        return { type: "paypal", token: "" }
      },
      declineCode: "payment_method_declined",
      completeRedirect: (url) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((answer) => answer.text())).pipe(Effect.asVoid),
      manualCapture: true,
      dropNextAnswer: () => fake.injectFault("hang"),
      paymentsFor: fake.ordersFor,
      recordedAmount: (reference) => {
        const order = orderOf(reference)
        return order === undefined ? null : minorUnits(order.amount)
      },
      paymentWebhook: (orderId, { forged }) =>
        Effect.sync(() => {
          const delivery = fake.webhook(WEBHOOK_ID, "PAYMENT.CAPTURE.COMPLETED", fake.captureResource(orderId))
          const headers = forged ? { ...delivery.headers, "paypal-transmission-sig": "Zm9yZ2VkIHNpZ25hdHVyZQ==" } : delivery.headers
          return { body: new TextEncoder().encode(delivery.body), headers }
        }),
      violations: () => fake.exchanges.flatMap((exchange) => violationsOf(exchange).map((problem) => `${exchange.method} ${exchange.url}: ${problem}`)),
      // USD and EUR in cents, JPY in whole yen, at PayPal as in ISO 4217.
      currencies: ["EUR", "JPY", "USD"].map((code) => code as Currency),
      approvalRequired: true,
      findsByReference: false,
      timeoutMs: 5_000
    }
    return rig
  }).pipe(Effect.orDie)
})
