import { Effect } from "effect"
import { json, newKey } from "./Fixtures.js"
import { merchant, raw } from "./TestServer.js"

export const sessionBody = {
  amount: 2500,
  currency: "EUR",
  success_url: "https://shop.test/thanks?session={CHECKOUT_SESSION_ID}",
  cancel_url: "https://shop.test/cart"
}

/** A merchant with one checkout session, and calls made as its server or as the customer's browser. */
export const checkoutSetup = (body: object = {}) =>
  Effect.gen(function*() {
    const account = yield* merchant()
    const { baseUrl, secret } = account
    const created = yield* raw(`${baseUrl}/v1/checkout/sessions`, {
      method: "POST",
      headers: json(secret, newKey()),
      body: JSON.stringify({ ...sessionBody, ...body })
    })
    const session = created.json
    const server = (path: string, init: { readonly method?: string; readonly body?: object } = {}) =>
      raw(`${baseUrl}${path}`, {
        method: init.method ?? "GET",
        headers: json(secret),
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
      })
    /** As the browser: the client secret in its header (or `via: "query"`), never the API key. */
    const browser = (
      path: string,
      init: { readonly method?: string; readonly body?: object; readonly clientSecret?: string; readonly via?: "query" } = {}
    ) => {
      const clientSecret = init.clientSecret ?? session.client_secret
      const url = init.via === "query"
        ? `${baseUrl}${path}${path.includes("?") ? "&" : "?"}client_secret=${encodeURIComponent(clientSecret)}`
        : `${baseUrl}${path}`
      return raw(url, {
        method: init.method ?? "GET",
        headers: {
          "content-type": "application/json",
          ...(init.via === "query" ? {} : { "service-client-secret": clientSecret })
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
      })
    }
    const confirm = (token: string) =>
      browser(`/v1/checkout/sessions/${session.id}/confirm`, {
        method: "POST",
        body: { payment_method: { type: "card", token } }
      })
    const reroute = (body: object = {}) => browser(`/v1/checkout/sessions/${session.id}/reroute`, { method: "POST", body })
    const cancel = () => browser(`/v1/checkout/sessions/${session.id}/cancel`, { method: "POST" })
    return { ...account, created, session, server, browser, confirm, reroute, cancel }
  })

/** The merchant's PayPal connection `paypal_eu`, pointed at a fake PayPal; answers the service's status. */
export const connectPayPal = (
  account: { readonly baseUrl: string; readonly secret: string },
  paypal: { readonly url: string; readonly clientId: string; readonly clientSecret: string }
) =>
  Effect.map(
    raw(`${account.baseUrl}/v1/provider-connections`, {
      method: "POST",
      headers: json(account.secret, newKey()),
      body: JSON.stringify({
        name: "paypal_eu",
        type: "paypal",
        display_name: "PayPal",
        credentials: { client_id: paypal.clientId, client_secret: paypal.clientSecret },
        base_url: paypal.url,
        settings: { webhook_id: "8PT597110X687430LFAKE", timeout_ms: 20_000 }
      })
    }),
    (answer) => answer.status
  )
