import { expect, layer } from "@effect/vitest"
import { KeyMaterial, signReturnToken } from "@orchestrator/core"
import { type FakeStripe, fakeStripe, testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./support/Fixtures.js"
import { merchant, raw, type RawResponse, serverLayer } from "./support/TestServer.js"

/** The customer's way back, as an attacker or a stale link would try it: the documented 404, nothing more. */
const expectMissing = (response: RawResponse, what: string) => {
  expect([what, response.status, response.json?.error?.type, response.json?.error?.code])
    .toEqual([what, 404, "invalid_request_error", "resource_missing"])
  expect(response.json.error.request_id).toBe(response.headers.get("request-id"))
}

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `the customer's return from 3D Secure on ${database.name}`,
    (it) => {
      /** A merchant on a Stripe (the wire-level fake) connection, and how it makes and reads payments. */
      const setup = Effect.gen(function*() {
        const stripe = yield* fakeStripe
        const account = yield* merchant()
        const post = (path: string, body: object) =>
          raw(`${account.baseUrl}${path}`, { method: "POST", headers: json(account.secret, newKey()), body: JSON.stringify(body) })
        const connection = yield* post("/v1/provider-connections", {
          name: "stripe",
          type: "stripe",
          credentials: { secret_key: "sk_test_return1" },
          base_url: stripe.url
        })
        expect(connection.status).toBe(201)
        const pay = (method: string, extra: object = {}) =>
          Effect.map(
            post("/v1/payments", { amount: 1050, currency: "EUR", payment_method: { type: "card", token: method }, provider: "stripe", ...extra }),
            (response) => response.json
          )
        const statusOf = (id: string) =>
          Effect.map(raw(`${account.baseUrl}/v1/payments/${id}`, { headers: json(account.secret) }), (response) => response.json.status)
        return { ...account, stripe, pay, statusOf }
      })

      /** The return URL Stripe was given for a payment, as Stripe keeps it. */
      const returnUrlAtStripe = (stripe: FakeStripe, paymentId: string) =>
        [...stripe.intents.values()].find((intent) => intent.metadata.payment_id === paymentId)!.return_url!

      /** What Stripe was asked since `from` (exchanges are recorded in order). */
      const askedSince = (stripe: FakeStripe, from: number) => stripe.exchanges.slice(from).map((exchange) => `${exchange.method} ${exchange.url}`)

      /** The customer finishes the challenge on Stripe's page: where Stripe sends them back. */
      const completeChallenge = (challengeUrl: string) =>
        Effect.map(raw(challengeUrl), (atStripe) => {
          expect(atStripe.status).toBe(302)
          return atStripe.headers.get("location")!
        })

      it.scoped("without a valid token it answers 404 and asks the PSP nothing; with it, it settles and redirects", () =>
        Effect.gen(function*() {
          const { baseUrl, pay, statusOf, stripe, tenant } = yield* setup
          const payment = yield* pay("pm_card_threeDSecure2Required", { return_url: "https://shop.example/done?order=42" })
          const other = yield* pay("pm_card_threeDSecure2Required", { return_url: "https://shop.example/done" })
          expect([payment.status, other.status]).toEqual(["requires_action", "requires_action"])

          // Stripe keeps our URL whole, query included, and sends the customer back to it with its own parameters.
          const given = new URL(returnUrlAtStripe(stripe, payment.id))
          expect(`${given.origin}${given.pathname}`).toBe(`${baseUrl}/v1/payments/${payment.id}/return`)
          const token = given.searchParams.get("token")!
          expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/)
          const back = new URL(yield* completeChallenge(payment.next_action.url))
          expect(back.searchParams.get("token")).toBe(token)
          expect(back.searchParams.get("payment_intent")).toMatch(/^pi_/)

          const [expiresAt, signature] = token.split(".") as [string, string]
          const { returnSigning } = yield* KeyMaterial
          const expired = yield* signReturnToken(returnSigning, payment.id, tenant, Math.floor(Date.now() / 1000) - 1)
          const withToken = (value: string | null) => {
            const url = new URL(back)
            if (value === null) url.searchParams.delete("token")
            else url.searchParams.set("token", value)
            return url.toString()
          }
          const asked = stripe.exchanges.length
          const attempts: Record<string, string> = {
            "no token": withToken(null),
            "an empty token": withToken(""),
            "a token of another shape": withToken("1.2"),
            "a tampered signature": withToken(`${expiresAt}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`),
            "a later expiry": withToken(`${Number(expiresAt) + 86_400}.${signature}`),
            "an expired token": withToken(expired),
            "another payment's token": withToken(new URL(returnUrlAtStripe(stripe, other.id)).searchParams.get("token")),
            "an unknown payment": withToken(token).replace(payment.id, `${payment.id.slice(0, -1)}x`)
          }
          for (const [what, url] of Object.entries(attempts)) expectMissing(yield* raw(url), what)
          expect(askedSince(stripe, asked)).toEqual([])
          // Stripe has the challenge completed, but nobody who could not prove the return asked it.
          expect(yield* statusOf(payment.id)).toBe("requires_action")

          const returned = yield* raw(back.toString())
          expect(returned.status).toBe(303)
          expect(returned.headers.get("location")).toBe(`https://shop.example/done?order=42&payment_id=${payment.id}`)
          expect(returned.headers.get("referrer-policy")).toBe("no-referrer")
          expect(yield* statusOf(payment.id)).toBe("succeeded")
          expect(askedSince(stripe, asked)).toHaveLength(1)
        }))

      it.scoped("two returns at once ask the PSP once, and both redirect to the merchant", () =>
        Effect.gen(function*() {
          const { pay, statusOf, stripe } = yield* setup
          const payment = yield* pay("pm_card_threeDSecure2Required", { return_url: "https://shop.example/done" })
          const back = yield* completeChallenge(payment.next_action.url)
          const asked = stripe.exchanges.length
          const returns = yield* Effect.all([raw(back), raw(back)], { concurrency: "unbounded" })
          expect(returns.map((response) => [response.status, response.headers.get("location")])).toEqual([
            [303, `https://shop.example/done?payment_id=${payment.id}`],
            [303, `https://shop.example/done?payment_id=${payment.id}`]
          ])
          expect(askedSince(stripe, asked)).toHaveLength(1)
          expect(yield* statusOf(payment.id)).toBe("succeeded")
        }))

      it.scoped("without a return_url, the page says only that the window can be closed", () =>
        Effect.gen(function*() {
          const { pay, stripe } = yield* setup
          const payment = yield* pay("pm_card_visa", { description: "Order 42" })
          expect(payment.status).toBe("succeeded")
          const page = yield* raw(returnUrlAtStripe(stripe, payment.id))
          expect(page.status).toBe(200)
          expect(page.headers.get("content-type")).toContain("text/html")
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.text).toContain("You can close this window.")
          for (const secret of [payment.id, "succeeded", "1050", "10.50", "EUR", "stripe", "Order 42", "visa", "4242"]) {
            expect([secret, page.text.toLowerCase().includes(secret.toLowerCase())]).toEqual([secret, false])
          }
        }))
    }
  )
}
