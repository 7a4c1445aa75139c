import type { Page } from "@orchestrator/testing"
import { Effect } from "effect"
import { json, newKey } from "./Fixtures.js"
import { raw } from "./TestServer.js"

/** Everything the merchant page's own scripts can reach: its document, its storage, the messages its window got, its resource timings. */
export const whatTheShopSees = (page: Page) =>
  Effect.promise(() =>
    page.evaluate(() =>
      JSON.stringify({
        html: document.documentElement.outerHTML,
        received: (window as any).received,
        method: (window as any).method ?? null,
        local: JSON.stringify({ ...localStorage }),
        session: JSON.stringify({ ...sessionStorage }),
        cookies: document.cookie,
        timings: performance.getEntries().map((entry) => entry.name),
        url: location.href
      })
    )
  )

/** A merchant's calls with its secret key (each POST under a fresh Idempotency-Key), answered as sent. */
export const merchantCalls =
  (account: { readonly baseUrl: string; readonly secret: string }) => (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
    raw(`${account.baseUrl}${path}`, {
      method,
      headers: json(account.secret, newKey()),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })

/** The merchant's cards go to Stripe first, Adyen next (both fakes, connections `stripe_eu` and `adyen_eu`). */
export const stripeThenAdyen = (
  call: ReturnType<typeof merchantCalls>,
  stripe: { readonly url: string },
  adyen: { readonly url: string; readonly merchantAccount: string }
) =>
  Effect.gen(function*() {
    yield* call("/v1/provider-connections", { name: "stripe_eu", type: "stripe", credentials: { secret_key: "sk_test_checkout" }, base_url: stripe.url })
    yield* call("/v1/provider-connections", {
      name: "adyen_eu",
      type: "adyen",
      credentials: { api_key: "AQE_checkout", merchant_account: adyen.merchantAccount },
      base_url: adyen.url
    })
    yield* call("/v1/routing-rules", { priority: 1, conditions: {}, action: { provider: "stripe_eu" } })
    yield* call("/v1/routing-rules", { priority: 2, conditions: {}, action: { provider: "adyen_eu" } })
    yield* call("/v1/organization", { default_provider: "adyen_eu", payments_routing: "rules" }, "PATCH")
  })
