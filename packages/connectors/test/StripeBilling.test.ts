import { describe, expect, it } from "@effect/vitest"
import type { Currency, NativeSubscriptionRequest, PaymentConnector, ProviderEvent } from "@orchestrator/core"
import { decodeFormBody, FAKE_STRIPE_RETRY_DAYS, type FakeStripe, fakeStripe, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { createHmac } from "node:crypto"
import { makeStripeConnector } from "../src/stripe/StripeConnector.js"
import { StripeSettings } from "../src/stripe/StripeSettings.js"

import { fetchHttp, pspContext, reference } from "./pspFixtures.js"

const SECRET_KEY = "sk_test_51FakeKeyForBilling"
const WEBHOOK_SECRET = "whsec_stripe_billing_secret"
const DAY = 86_400_000
const START = Date.UTC(2027, 0, 31, 10, 0, 0)
/** Stripe keeps the anchor day where the month has it: Jan 31, Feb 28, Mar 31, Apr 30. */
const FEB_28 = Date.UTC(2027, 1, 28, 10, 0, 0)
const MAR_31 = Date.UTC(2027, 2, 31, 10, 0, 0)
const APR_30 = Date.UTC(2027, 3, 30, 10, 0, 0)

const contract = OpenApiContract.stripe()

const connect = (fake: FakeStripe) =>
  Effect.map(fetchHttp, (http) => {
    const connector = makeStripeConnector(
      http,
      pspContext({ type: "stripe", baseUrl: fake.url, credentials: { secret_key: SECRET_KEY }, webhookSecret: WEBHOOK_SECRET }),
      Schema.decodeUnknownSync(StripeSettings)({})
    )
    return { connector, billing: connector.subscriptions! }
  })

const monthly = (extra: Partial<NativeSubscriptionRequest> = {}): NativeSubscriptionRequest => ({
  reference: `sub_${reference()}`,
  amount: 1999,
  currency: "EUR" as Currency,
  interval: "month",
  intervalCount: 1,
  startMillis: START,
  trialEndMillis: null,
  paymentMethod: { type: "card", token: "pm_card_visa" },
  customer: { id: "cus_ours", email: "jenny@example.com", name: "Jenny Rosen" },
  testClock: true,
  ...extra
})

/** Every request and answer so far, and every object Stripe's events carried, held against Stripe's document. */
const expectContract = (fake: FakeStripe) => {
  for (const exchange of fake.exchanges) {
    expect([exchange.method, exchange.url, contract.checkRequest(exchange)]).toEqual([exchange.method, exchange.url, []])
    expect([exchange.url, exchange.status, contract.checkResponse(exchange)]).toEqual([exchange.url, exchange.status, []])
  }
  for (const event of fake.billing.events) {
    const schema = event.type.startsWith("invoice.") ? "invoice" : "subscription"
    expect([event.type, contract.checkSchema(`components/schemas/${schema}`, event.object)]).toEqual([event.type, []])
  }
}

/**
 * The fake's Billing events from the `from`-th on, as Stripe would send them, signed here from
 * Stripe's documented algorithm, read by the connector: the reports it gives the service.
 */
const reportsFrom = (fake: FakeStripe, connector: PaymentConnector, from: number) =>
  Effect.gen(function*() {
    const reports: Array<Extract<ProviderEvent, { _tag: "SubscriptionUpdated" }>> = []
    for (const event of fake.billing.events.slice(from)) {
      const body = JSON.stringify({ id: event.id, object: "event", type: event.type, created: event.created, data: { object: event.object } })
      const t = Math.floor(Date.now() / 1000)
      const signature = `t=${t},v1=${createHmac("sha256", WEBHOOK_SECRET).update(`${t}.${body}`).digest("hex")}`
      const read = yield* connector.verifyWebhook({
        body: new TextEncoder().encode(body),
        headers: { "stripe-signature": signature }
      })
      for (const report of read) if (report._tag === "SubscriptionUpdated") reports.push(report)
    }
    return reports
  })

const invoiceOf = (report: Extract<ProviderEvent, { _tag: "SubscriptionUpdated" }>) => report.invoice

describe("Stripe Billing as engine native, against a wire-level fake of Stripe", () => {
  it.scopedLive("starts a subscription on a test clock with a customer, its card and a price, idempotently, and every request is valid", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const { billing, connector } = yield* connect(fake)
      const request = monthly()
      const { pspSubscriptionId } = yield* billing.create(request)
      expect(pspSubscriptionId).toMatch(/^sub_/)
      const posts = fake.exchanges.filter((exchange) => exchange.method === "POST")
      expect(posts.map((exchange) => exchange.url)).toEqual([
        "/v1/test_helpers/test_clocks",
        "/v1/customers",
        "/v1/payment_methods/pm_card_visa/attach",
        "/v1/prices",
        "/v1/subscriptions"
      ])
      const forms = posts.map((exchange) => decodeFormBody(exchange.body) as Record<string, any>)
      expect(forms[0]).toEqual({ frozen_time: String(START / 1000), name: request.reference })
      const clock = JSON.parse(posts[0]!.responseBody).id
      expect(forms[1]).toMatchObject({ email: "jenny@example.com", name: "Jenny Rosen", test_clock: clock })
      const customer = JSON.parse(posts[1]!.responseBody).id
      const card = JSON.parse(posts[2]!.responseBody).id
      expect(card).not.toBe("pm_card_visa")
      expect(forms[2]).toEqual({ customer })
      expect(forms[3]).toMatchObject({ currency: "eur", unit_amount: "1999", recurring: { interval: "month", interval_count: "1" } })
      expect(forms[4]).toMatchObject({
        customer,
        items: [{ price: JSON.parse(posts[3]!.responseBody).id }],
        default_payment_method: card,
        payment_behavior: "allow_incomplete",
        off_session: "true",
        metadata: { reference: request.reference }
      })
      expect(posts.map((exchange) => exchange.headers["idempotency-key"])).toEqual(
        ["test_clock", "customer", "payment_method", "price", "subscription"].map((what) => `${request.reference}:${what}`)
      )

      // The same request again (our create retried after a lost answer): the same subscription, charged once.
      expect(yield* billing.create(request)).toEqual({ pspSubscriptionId })
      expect(fake.billing.subscriptions.size).toBe(1)
      expect(fake.billing.charges).toEqual([expect.objectContaining({ subscription: pspSubscriptionId, amount: 1999, paid: true })])

      const reports = yield* reportsFrom(fake, connector, 0)
      expect(reports).toHaveLength(1)
      expect(reports[0]).toMatchObject({ reference: request.reference, pspSubscriptionId, status: "active" })
      expect(invoiceOf(reports[0]!)).toMatchObject({
        periodStartMillis: START,
        periodEndMillis: FEB_28,
        amount: 1999,
        currency: "EUR",
        attempt: 1,
        outcome: "paid",
        nextAttemptMillis: null,
        firstCharge: true
      })
      expectContract(fake)
    }))

  it.scopedLive("renews on the clock's advances, retries a declined renewal on Stripe's schedule, then reports the end", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const { billing, connector } = yield* connect(fake)
      const request = monthly()
      const { pspSubscriptionId } = yield* billing.create(request)
      let seen = fake.billing.events.length

      // Our clock moves a month: Stripe's follows, and bills the next period from its anchor day.
      const advanced = yield* billing.advance({ pspSubscriptionId, toMillis: FEB_28 + 60_000 })
      // Asked again at its next renewal.
      expect(advanced).toEqual({ reports: [], nextRunMillis: MAR_31 })
      const renewed = yield* reportsFrom(fake, connector, seen)
      seen = fake.billing.events.length
      expect(renewed.map(invoiceOf)).toEqual([expect.objectContaining({
        periodStartMillis: FEB_28,
        periodEndMillis: MAR_31,
        outcome: "paid",
        attempt: 1,
        firstCharge: false
      })])
      // An advance to where Stripe's clock already is asks nothing.
      const before = fake.exchanges.length
      yield* billing.advance({ pspSubscriptionId, toMillis: FEB_28 + 60_500 })
      expect(fake.exchanges.slice(before).some((exchange) => exchange.url.endsWith("/advance"))).toBe(false)

      // The customer's new card is declined at the next renewal, and at each of Stripe's retries.
      yield* billing.updatePaymentMethod({ pspSubscriptionId, paymentMethod: { type: "card", token: "pm_card_chargeDeclined" } })
      const retried = yield* billing.advance({ pspSubscriptionId, toMillis: MAR_31 + 60_000 })
      // Asked again at Stripe's first retry, which comes before the next renewal.
      expect(retried.nextRunMillis).toBe(MAR_31 + FAKE_STRIPE_RETRY_DAYS[0]! * DAY)
      const failed = yield* reportsFrom(fake, connector, seen)
      seen = fake.billing.events.length
      expect(failed.filter((report) => report.invoice !== null).map(invoiceOf)).toEqual([expect.objectContaining({
        periodStartMillis: MAR_31,
        outcome: "failed",
        attempt: 1,
        nextAttemptMillis: MAR_31 + FAKE_STRIPE_RETRY_DAYS[0]! * DAY
      })])
      yield* billing.advance({ pspSubscriptionId, toMillis: MAR_31 + 10 * DAY })
      const exhausted = yield* reportsFrom(fake, connector, seen)
      expect(exhausted.map((report) => [report.status, report.invoice?.attempt ?? null, report.invoice?.nextAttemptMillis ?? null])).toEqual([
        ["past_due", 2, MAR_31 + FAKE_STRIPE_RETRY_DAYS[1]! * DAY],
        ["past_due", 3, MAR_31 + FAKE_STRIPE_RETRY_DAYS[2]! * DAY],
        ["past_due", 4, null],
        ["canceled", null, null]
      ])
      // Ended: later advances leave it alone and stop asking.
      expect(yield* billing.advance({ pspSubscriptionId, toMillis: APR_30 + DAY })).toEqual({ reports: [], nextRunMillis: null })
      expect(fake.billing.charges.map((charge) => charge.paid)).toEqual([true, true, false, false, false, false])
      expectContract(fake)
    }))

  it.scopedLive("a trial charges nothing until it ends; a cancel at period end ends it there, a cancel now at once", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const { billing, connector } = yield* connect(fake)
      const trialEnd = START + 14 * DAY
      const request = monthly({ trialEndMillis: trialEnd })
      const { pspSubscriptionId } = yield* billing.create(request)
      expect(decodeFormBody(fake.exchanges.at(-1)!.body)).toMatchObject({ trial_end: String(trialEnd / 1000) })
      // The trial's zero invoice is no charge: no report.
      expect(yield* reportsFrom(fake, connector, 0)).toEqual([])
      const seen = fake.billing.events.length
      yield* billing.advance({ pspSubscriptionId, toMillis: trialEnd + 60_000 })
      expect((yield* reportsFrom(fake, connector, seen)).map(invoiceOf)).toEqual([expect.objectContaining({
        periodStartMillis: trialEnd,
        outcome: "paid",
        amount: 1999,
        firstCharge: false
      })])

      yield* billing.cancel({ pspSubscriptionId, atPeriodEnd: true })
      expect(fake.billing.subscriptions.get(pspSubscriptionId)).toMatchObject({ status: "active", cancel_at_period_end: true })
      const afterCancel = fake.billing.events.length
      yield* billing.advance({ pspSubscriptionId, toMillis: trialEnd + 40 * DAY })
      expect((yield* reportsFrom(fake, connector, afterCancel)).map((report) => [report.status, report.invoice])).toEqual([["canceled", null]])
      expect(fake.billing.charges).toHaveLength(1)

      const other = yield* billing.create(monthly({ testClock: false }))
      expect(fake.exchanges.some((exchange) => exchange.url === "/v1/test_helpers/test_clocks" && exchange.body.includes(other.pspSubscriptionId))).toBe(false)
      yield* billing.cancel({ pspSubscriptionId: other.pspSubscriptionId, atPeriodEnd: false })
      expect(fake.exchanges.at(-1)).toMatchObject({ method: "DELETE", url: `/v1/subscriptions/${other.pspSubscriptionId}`, status: 200 })
      expect(fake.billing.subscriptions.get(other.pspSubscriptionId)?.status).toBe("canceled")
      // Canceling again is done already: nothing is asked of Stripe but the subscription.
      const count = fake.exchanges.length
      yield* billing.cancel({ pspSubscriptionId: other.pspSubscriptionId, atPeriodEnd: false })
      expect(fake.exchanges.slice(count).map((exchange) => exchange.method)).toEqual(["GET"])
      expectContract(fake)
    }))

  it.scopedLive("a declined first charge leaves Stripe's subscription incomplete, reported as exhausted; unknown cards are refused", () =>
    Effect.gen(function*() {
      const fake = yield* fakeStripe
      const { billing, connector } = yield* connect(fake)
      const request = monthly({ paymentMethod: { type: "card", token: "pm_card_chargeDeclinedInsufficientFunds" } })
      const { pspSubscriptionId } = yield* billing.create(request)
      expect(fake.billing.subscriptions.get(pspSubscriptionId)?.status).toBe("incomplete")
      const reports = yield* reportsFrom(fake, connector, 0)
      expect(reports.map(invoiceOf)).toEqual([expect.objectContaining({ outcome: "failed", attempt: 1, nextAttemptMillis: null, firstCharge: true })])

      const refused = yield* Effect.flip(billing.create(monthly({ paymentMethod: { type: "card", token: "pm_nope" } })))
      expect(refused).toMatchObject({ _tag: "ConnectorUnavailable" })
      expect(refused.reason).toContain("attach payment method")
      expect(refused.reason).not.toContain(SECRET_KEY)
      expectContract(fake)
    }))
})
