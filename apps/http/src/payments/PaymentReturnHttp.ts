import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { Payments, RETURN_TOKEN_PARAM } from "@orchestrator/core"
import { Effect } from "effect"

/**
 * Neither answer is kept by a cache, and neither sends its address (which holds the token) on as a
 * referrer.
 */
const PRIVATE_HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer" }

/**
 * Where the merchant gave no return_url (a subscription's first charge may have none). Anyone holding
 * the link sees it, so it says nothing of the payment (status, amount, provider, whether the challenge
 * passed): the merchant learns the outcome from the API and its webhooks.
 */
const closingPage = HttpServerResponse.text(
  `<!doctype html><meta charset="utf-8"><title>You can close this window</title>` +
    `<p>Authentication finished. You can close this window.</p>`,
  { contentType: "text/html; charset=utf-8", headers: PRIVATE_HEADERS }
)

/** Back from 3D Secure: settle with the PSP, then send the customer on to the merchant. */
export const PaymentReturnHttpLive = HttpApiBuilder.group(
  Api,
  "paymentReturn",
  (handlers) =>
    Effect.map(Payments, (payments) =>
      handlers.handle("return", ({ path, urlParams }) => {
        // The token is ours; everything else is what the PSP appended for its connector. Of a name given
        // twice the first is kept: ours comes first, a PSP appends (PayPal adds `token=<order id>`).
        const first = (value: string | ReadonlyArray<string>) => typeof value === "string" ? value : value[0] ?? ""
        const { [RETURN_TOKEN_PARAM]: tokens, ...appended } = urlParams
        const token = tokens === undefined ? undefined : first(tokens)
        const details = Object.fromEntries(Object.entries(appended).map(([name, value]) => [name, first(value)]))
        return payments.returnFromAction(path.id, token, details).pipe(
          Effect.map((payment) => {
            if (payment.return_url === null) return closingPage
            const target = new URL(payment.return_url)
            target.searchParams.set("payment_id", payment.id)
            return HttpServerResponse.empty({ status: 303, headers: { location: target.toString(), ...PRIVATE_HEADERS } })
          }),
          answering
        )
      }, { uninterruptible: true }))
)
