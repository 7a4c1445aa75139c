import { expect } from "@effect/vitest"
import type { AuthorizeRequest } from "@orchestrator/core"
import { type FakePayPal, OpenApiContract, type RecordedExchange } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makePayPalConnector } from "../src/paypal/Connector.js"
import { PayPalSettings } from "../src/paypal/Settings.js"
import { makeTokenCache, type TokenCache } from "../src/paypal/Token.js"
import { authorizeWith, fetchHttp, pspContext } from "./pspFixtures.js"

export const WEBHOOK_ID = "8PT597110X687430LFAKE"

/** A PayPal connector on the fake, with its own token cache unless one is shared. */
export const paypal = (
  fake: FakePayPal,
  settings: Record<string, unknown> = { webhook_id: WEBHOOK_ID },
  options: { readonly tokens?: TokenCache; readonly secret?: string; readonly baseUrl?: string } = {}
) =>
  Effect.map(fetchHttp, (http) =>
    makePayPalConnector(
      http,
      pspContext({
        type: "paypal",
        baseUrl: options.baseUrl ?? fake.url,
        credentials: { client_id: fake.clientId, client_secret: options.secret ?? fake.clientSecret },
        webhookSecret: "unused"
      }),
      Schema.decodeUnknownSync(PayPalSettings)(settings),
      options.tokens ?? makeTokenCache()
    ))

/** A `{ type: "paypal" }` payment. */
export const paypalPayment = (extra: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  ...authorizeWith("unused"),
  paymentMethod: { type: "paypal", token: null },
  ...extra
})

const documents = {
  orders: OpenApiContract.paypalOrders(),
  payments: OpenApiContract.paypalPayments(),
  webhooks: OpenApiContract.paypalWebhooks(),
  disputes: OpenApiContract.paypalDisputes()
}

/** The published document an exchange is judged by; the token endpoint is in none of them. */
const documentOf = (exchange: RecordedExchange) =>
  exchange.url.startsWith("/v2/checkout/")
    ? documents.orders
    : exchange.url.startsWith("/v2/payments/")
    ? documents.payments
    : exchange.url.startsWith("/v1/notifications/")
    ? documents.webhooks
    : exchange.url.startsWith("/v1/customer/disputes")
    ? documents.disputes
    : undefined

/**
 * Every request and answer so far held against PayPal's published documents. The OAuth2 token call,
 * which no document describes, is held to PayPal's authentication guide: Basic client credentials
 * and `grant_type=client_credentials`.
 */
export const expectPayPalContract = (fake: FakePayPal) => {
  expect(fake.exchanges.length).toBeGreaterThan(0)
  for (const exchange of fake.exchanges) {
    const document = documentOf(exchange)
    if (document === undefined) {
      expect([exchange.method, exchange.url, exchange.body]).toEqual(["POST", "/v1/oauth2/token", "grant_type=client_credentials"])
      expect(exchange.headers.authorization).toMatch(/^Basic /)
      continue
    }
    expect([exchange.method, exchange.url, document.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
    expect([exchange.url, exchange.status, document.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
}

export const webhookEventErrors = (body: string) => documents.webhooks.checkSchema("components/schemas/event", JSON.parse(body))

/** What PayPal's Disputes document finds wrong with a dispute as the fake shows it (a webhook's resource, a read). */
export const disputeErrors = (dispute: unknown) => documents.disputes.checkSchema("components/schemas/dispute", dispute)

/** What PayPal's Disputes document finds wrong with one evidence the connector sent. */
export const evidenceErrors = (evidence: unknown) => documents.disputes.checkSchema("components/schemas/evidence", evidence)

/** The payer at PayPal's approval page: approves (paying as `funding` says) and is sent back. */
export const approveAt = (redirectUrl: string, funding = "ok") =>
  Effect.promise(async () => {
    const url = new URL(redirectUrl)
    url.searchParams.set("funding", funding)
    const answer = await fetch(url, { redirect: "manual" })
    return new URL(answer.headers.get("location")!)
  })
