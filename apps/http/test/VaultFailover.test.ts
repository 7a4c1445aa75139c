import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Organizations } from "@orchestrator/core"
import { fakeAdyen, fakeCheckoutCom, fakeStripe, OpenApiContract, testDatabases } from "@orchestrator/testing"
import { Cause, Effect, Exit, Layer, Option, Tracer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

const logs: Array<string> = []
const responses: Array<string> = []
/** Every span the server makes, kept to be searched for card numbers (Effect's own tracer, recording). */
const spans: Array<Tracer.Span> = []
const native = Effect.runSync(Effect.tracer)
const recordingTracer = Tracer.make({
  span: (...args) => {
    const span = native.span(...args)
    spans.push(span)
    return span
  },
  context: (f, fiber) => native.context(f, fiber)
})
/** What an exporter sends of a span: its name, attributes, and the failure it ended with (a success's value stays in the process). */
const spanText = (span: Tracer.Span) =>
  JSON.stringify([
    span.name,
    [...span.attributes].map(([key, value]) => [key, String(value)]),
    span.status._tag === "Ended" && Exit.isFailure(span.status.exit) ? Cause.pretty(span.status.exit.cause) : ""
  ])
const VISA = "4242424242424242"
const DECLINED = "4000000000000002"
const year = new Date().getUTCFullYear() + 2
const adyenDocument = OpenApiContract.adyenCheckout()
const checkoutComDocument = OpenApiContract.checkoutCom()
const stripeDocument = OpenApiContract.stripe()

/** Stripe in an outage: every call answered 500 with Stripe's `api_error`. */
const stripeOutage = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ url: string; calls: () => number; server: http.Server }>((resolve) => {
      let calls = 0
      const server = http.createServer((request, response) => {
        calls++
        request.resume()
        response.writeHead(500, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: { type: "api_error", message: "An unknown error occurred" } }))
      })
      server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, server }))
    })
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer, { logs, rawCardData: () => true }).pipe(Layer.provide(Layer.setTracer(recordingTracer))), {
    excludeTestServices: true,
    timeout: "180 seconds"
  })(
    `vaulted cards fail over across PSPs on ${database.name}`,
    (it) => {
      const setup = Effect.gen(function*() {
        const account = yield* merchant()
        const call = (path: string, init: { method?: string; body?: unknown; secret?: string } = {}) =>
          raw(`${account.baseUrl}${path}`, {
            method: init.method ?? (init.body === undefined ? "GET" : "POST"),
            headers: json(init.secret ?? account.secret, init.body === undefined ? undefined : newKey()),
            ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
          }).pipe(Effect.tap((answer) => Effect.sync(() => responses.push(answer.text))))
        const connect = (body: object) => Effect.tap(call("/v1/provider-connections", { body }), (answer) => expect(answer.status).toBe(201))
        /** Routing rules, first to last, each sending every payment to one connection. */
        const route = (...providers: ReadonlyArray<string>) =>
          Effect.gen(function*() {
            for (const [index, provider] of providers.entries()) {
              expect((yield* call("/v1/routing-rules", { body: { priority: index + 1, conditions: {}, action: { provider } } })).status).toBe(201)
            }
            yield* call("/v1/organization", { method: "PATCH", body: { default_provider: providers.at(-1), payments_routing: "rules" } })
          })
        const vault = (number: string, cvc = "123") =>
          Effect.map(
            call("/v1/payment_methods", { body: { type: "card", card: { number, exp_month: 7, exp_year: year, cvc, holder_name: "Ada Lovelace" } } }),
            (answer) => answer.json.id as string
          )
        const pay = (token: string) =>
          call("/v1/payments", { body: { amount: 2500, currency: "EUR", payment_method: { type: "card", token }, return_url: "https://shop.example/back" } })
        return { ...account, call, connect, route, vault, pay }
      })

      /**
       * A card's first payment at Stripe (the customer there, with the CVC), then a subscription of
       * the card on `second`, whose renewal a month later is charged there, the customer away.
       * Returns the scheme's id Stripe gave the first payment.
       */
      const chainedRenewal = (second: { readonly name: string } & Record<string, unknown>) =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const { call, connect, vault } = yield* setup
          yield* connect({ name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_chain" }, base_url: stripe.url })
          yield* connect(second)
          const token = yield* vault(VISA)
          const first = yield* call("/v1/payments", {
            body: { amount: 2500, currency: "EUR", payment_method: { type: "card", token }, provider: "stripe_eu", return_url: "https://shop.example/back" }
          })
          expect([first.status, first.json.status, first.json.provider]).toEqual([201, "succeeded", "stripe_eu"])
          expect(stripe.exchanges.find((exchange) => exchange.url === "/v1/payment_methods")!.body).toContain("card%5Bcvc%5D=123")
          const intent = stripe.exchanges.find((exchange) => exchange.method === "POST" && exchange.url === "/v1/payment_intents")!
          const schemeId: string = JSON.parse(intent.responseBody).charges.data[0].payment_method_details.card.network_transaction_id
          expect(schemeId).toMatch(/^\d{15}$/)

          const clock = yield* call("/v1/test_helpers/test_clocks", { body: { frozen_time: "2027-01-10T00:00:00.000Z" } })
          const customer = yield* call("/v1/customers", { body: { email: "ada@example.com", name: "Ada Lovelace", test_clock: clock.json.id } })
          const plan = yield* call("/v1/plans", { body: { amount: 1999, currency: "EUR", interval: "month" } })
          const subscribed = yield* call("/v1/subscriptions", {
            body: { customer: customer.json.id, plan: plan.json.id, payment_method: token, provider: second.name, return_url: "https://shop.example/back" }
          })
          expect([subscribed.status, subscribed.json.status, subscribed.json.provider]).toEqual([201, "active", second.name])
          const advanced = yield* call(`/v1/test_helpers/test_clocks/${clock.json.id}/advance`, { body: { frozen_time: "2027-02-11T00:00:00.000Z" } })
          expect(advanced.status).toBe(200)
          const invoices = yield* call(`/v1/invoices?subscription=${subscribed.json.id}&limit=10`)
          expect(invoices.json.data.map((invoice: { status: string }) => invoice.status)).toEqual(["paid", "paid"])
          // The scheme's id is between the PSPs and the vault: no answer to the merchant shows it.
          expect(responses.filter((text) => text.includes(schemeId))).toEqual([])
          return schemeId
        })

      it.scoped("Stripe answers 5xx: the payment fails over to Adyen with the card in Adyen's raw-card shape, one charge, and the CVC only once", () =>
        Effect.gen(function*() {
          const outage = yield* stripeOutage
          const adyen = yield* fakeAdyen
          const { call, connect, pay, route, vault } = yield* setup
          yield* connect({ name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_vault1" }, base_url: outage.url })
          yield* connect({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_vault", merchant_account: adyen.merchantAccount },
            base_url: adyen.url
          })
          yield* route("stripe_eu", "adyen_eu")
          const token = yield* vault(VISA)

          const paid = yield* pay(token)
          expect([paid.status, paid.json.status, paid.json.provider]).toEqual([201, "succeeded", "adyen_eu"])
          expect(paid.json.payment_method).toMatchObject({ type: "card", token })
          // Stripe's tries (as many as the retry policy gives a processing error) fail, then Adyen's one succeeds.
          const attempts = paid.json.attempts.map((attempt: { provider: string; status: string }) => `${attempt.provider} ${attempt.status}`)
          expect(attempts[0]).toBe("stripe_eu failed")
          expect(attempts.slice(-1)).toEqual(["adyen_eu succeeded"])
          expect(attempts.filter((attempt: string) => attempt.startsWith("adyen_eu"))).toHaveLength(1)
          expect(outage.calls()).toBeGreaterThanOrEqual(1)
          const sent = adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")
          expect(sent).toHaveLength(1)
          expect(JSON.parse(sent[0]!.body).paymentMethod).toEqual({
            type: "scheme",
            number: VISA,
            expiryMonth: "07",
            expiryYear: String(year),
            cvc: "123",
            holderName: "Ada Lovelace"
          })
          expect(adyenDocument.checkRequest(sent[0]!)).toEqual([])
          expect(adyen.paymentsFor(paid.json.attempts.at(-1).id)).toBe(1)
          // One access a send: the first recorded by the payment's creation, each later one by its own read.
          const accesses = yield* call(`/v1/payment_methods/${token}/accesses?limit=100`)
          expect(accesses.json.data.map((access: { connection: string; payment_id: string }) => `${access.payment_id} ${access.connection}`).reverse())
            .toEqual(paid.json.attempts.map((attempt: { provider: string }) => `${paid.json.id} ${attempt.provider}`))

          // The CVC went with the first authorization: the next payment with the card carries none.
          const again = yield* pay(token)
          expect(again.json.status).toBe("succeeded")
          const second = adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")
          expect(second).toHaveLength(2)
          expect(JSON.parse(second[1]!.body).paymentMethod).not.toHaveProperty("cvc")
        }))

      it.scoped("Stripe answers 5xx: the payment fails over to Checkout.com with a card source, as its document says", () =>
        Effect.gen(function*() {
          const outage = yield* stripeOutage
          const checkoutCom = yield* fakeCheckoutCom
          const { connect, pay, route, vault } = yield* setup
          yield* connect({ name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_vault2" }, base_url: outage.url })
          yield* connect({
            name: "cko_eu",
            type: "checkout_com",
            credentials: { secret_key: "sk_sbox_vault" },
            base_url: checkoutCom.url,
            settings: { processing_channel_id: checkoutCom.processingChannelId }
          })
          yield* route("stripe_eu", "cko_eu")
          const paid = yield* pay(yield* vault(VISA, "456"))
          expect([paid.status, paid.json.status, paid.json.provider]).toEqual([201, "succeeded", "cko_eu"])
          const sent = checkoutCom.exchanges.filter((exchange) => exchange.method === "POST" && exchange.url === "/payments")
          expect(sent).toHaveLength(1)
          expect(JSON.parse(sent[0]!.body).source).toEqual({
            type: "card",
            number: VISA,
            expiry_month: 7,
            expiry_year: year,
            cvv: "456",
            name: "Ada Lovelace"
          })
          expect(checkoutComDocument.checkRequest(sent[0]!)).toEqual([])
          expect(checkoutCom.paymentsFor(paid.json.attempts.at(-1).id)).toBe(1)
        }))

      it.scoped("Stripe takes the card through its PaymentMethods API; a declined card never moves on to the next PSP", () =>
        Effect.gen(function*() {
          const stripe = yield* fakeStripe
          const adyen = yield* fakeAdyen
          const { connect, pay, route, vault } = yield* setup
          yield* connect({ name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_vault3" }, base_url: stripe.url })
          yield* connect({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_vault", merchant_account: adyen.merchantAccount },
            base_url: adyen.url
          })
          yield* route("stripe_eu", "adyen_eu")
          const paid = yield* pay(yield* vault(VISA))
          expect([paid.status, paid.json.status, paid.json.provider]).toEqual([201, "succeeded", "stripe_eu"])
          const created = stripe.exchanges.filter((exchange) => exchange.url === "/v1/payment_methods")
          expect(created).toHaveLength(1)
          expect(created[0]!.body).toContain(`card%5Bnumber%5D=${VISA}`)
          expect(stripeDocument.checkRequest(created[0]!)).toEqual([])
          expect(stripe.chargesFor(paid.json.attempts[0].id)).toBe(1)

          const declined = yield* pay(yield* vault(DECLINED))
          expect([declined.status, declined.json.error.code]).toEqual([402, "card_declined"])
          expect(declined.json.error.payment.attempts).toHaveLength(1)
          expect(adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")).toHaveLength(0)
        }))

      it.scoped("a card first charged at Stripe: its renewal at Adyen, the customer away, carries Stripe's scheme id as networkTxReference, no CVC", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const schemeId = yield* chainedRenewal({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_vault", merchant_account: adyen.merchantAccount },
            base_url: adyen.url
          })
          const sent = adyen.exchanges.filter((exchange) => exchange.url === "/v71/payments")
          expect(sent).toHaveLength(2)
          const [subscribing, renewal] = sent.map((exchange) => JSON.parse(exchange.body))
          // The subscription's first charge has the customer there: no merchant-initiated link.
          expect(subscribing.shopperInteraction).toBe("Ecommerce")
          expect(subscribing).not.toHaveProperty("additionalData")
          expect(renewal).toMatchObject({
            shopperInteraction: "ContAuth",
            recurringProcessingModel: "Subscription",
            additionalData: { networkTxReference: schemeId }
          })
          expect(renewal.paymentMethod).toMatchObject({ type: "scheme", number: VISA })
          expect(renewal.paymentMethod).not.toHaveProperty("cvc")
          for (const exchange of sent) expect(adyenDocument.checkRequest(exchange)).toEqual([])
        }))

      it.scoped("a card first charged at Stripe: its renewal at Checkout.com, the customer away, names Stripe's scheme id as previous_payment_id", () =>
        Effect.gen(function*() {
          const checkoutCom = yield* fakeCheckoutCom
          const schemeId = yield* chainedRenewal({
            name: "cko_eu",
            type: "checkout_com",
            credentials: { secret_key: "sk_sbox_vault" },
            base_url: checkoutCom.url,
            settings: { processing_channel_id: checkoutCom.processingChannelId }
          })
          const sent = checkoutCom.exchanges.filter((exchange) => exchange.method === "POST" && exchange.url === "/payments")
          expect(sent).toHaveLength(2)
          const [subscribing, renewal] = sent.map((exchange) => JSON.parse(exchange.body))
          expect(subscribing).toMatchObject({ payment_type: "Regular" })
          expect(subscribing).not.toHaveProperty("previous_payment_id")
          expect(renewal).toMatchObject({
            payment_type: "Recurring",
            merchant_initiated: true,
            previous_payment_id: schemeId,
            source: { type: "card", number: VISA, stored: true }
          })
          expect(renewal.source).not.toHaveProperty("cvv")
          for (const exchange of sent) expect(checkoutComDocument.checkRequest(exchange)).toEqual([])
        }))

      it.scoped("Mollie, which takes only its own card tokens, is skipped for a vaulted card (method_unsupported), in payments and the dry run", () =>
        Effect.gen(function*() {
          const adyen = yield* fakeAdyen
          const { call, connect, pay, route, vault } = yield* setup
          yield* connect({ name: "mollie_eu", type: "mollie", credentials: { api_key: "test_vaultMollieKey0000000000000000" }, base_url: "http://127.0.0.1:9" })
          yield* connect({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: "AQE_vault", merchant_account: adyen.merchantAccount },
            base_url: adyen.url
          })
          yield* route("mollie_eu", "adyen_eu")
          const token = yield* vault(VISA)
          const explained = yield* call("/v1/routing-rules/evaluate", {
            body: { amount: 2500, currency: "EUR", payment_method: { type: "card", token } }
          })
          expect(explained.json.provider).toBe("adyen_eu")
          expect(explained.json.payment_method).toMatchObject({ brand: "visa", country: "US" })
          expect(explained.json.candidates.find((candidate: { provider: string }) => candidate.provider === "mollie_eu").reason).toBe("method_unsupported")
          const paid = yield* pay(token)
          expect([paid.status, paid.json.provider, paid.json.attempts.length]).toEqual([201, "adyen_eu", 1])
        }))

      it.scoped("a test-mode card never pays live, and a deleted card pays nowhere", () =>
        Effect.gen(function*() {
          const { call, organization, pay, vault } = yield* setup
          const token = yield* vault(VISA)
          const live = yield* (yield* Organizations).createKey(organization.id, true)
          const refused = yield* call("/v1/payments", {
            secret: live.secret,
            body: { amount: 2500, currency: "EUR", payment_method: { type: "card", token } }
          })
          expect([refused.status, refused.json.error.code]).toEqual([400, "payment_method_livemode_mismatch"])
          expect((yield* call(`/v1/payment_methods/${token}`, { method: "DELETE" })).status).toBe(200)
          const gone = yield* pay(token)
          expect([gone.status, gone.json.error.code]).toEqual([404, "resource_missing"])
        }))

      it.effect("no card number is anywhere outside the vault's encrypted rows: tables, logs, spans, answers", () =>
        Effect.gen(function*() {
          // The storage's own client (the application's layer does not name it among what it provides).
          const sql = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.SqlClient))
          const tables = yield* sql<{ schema: string; name: string }>`
            select table_schema as schema, table_name as name from information_schema.tables
            where table_schema in ('public', 'vault') and table_type = 'BASE TABLE'`
          const dump: Array<string> = []
          for (const table of tables) {
            const rows = yield* sql.unsafe<{ row: string }>(`select row_to_json(t)::text as row from "${table.schema}"."${table.name}" t`)
            dump.push(...rows.map((row) => `${table.schema}.${table.name} ${row.row}`))
          }
          expect(dump.some((row) => row.startsWith("vault.cards"))).toBe(true)
          // Spans: the requests' and the PSP calls' (their names, attributes and how each ended).
          expect(spans.some((span) => spanText(span).includes("/v1/payment_methods"))).toBe(true)
          expect(spans.some((span) => span.name === "psp authorize")).toBe(true)
          const everywhere = [...dump, ...logs, ...responses, ...spans.map(spanText)]
          for (const number of [VISA, DECLINED]) {
            const forms = [number, number.replace(/(\d{4})(?=\d)/g, "$1 "), number.replace(/(\d{4})(?=\d)/g, "$1-")]
            expect(everywhere.filter((text) => forms.some((form) => text.includes(form))).map((text) => text.slice(0, 600))).toEqual([])
          }
        }))
    }
  )
}
