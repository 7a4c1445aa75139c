import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { dropinScript } from "./DropinScript.js"

const asset = (name: string) => readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8")
const dropinStyle = asset("dropin.css")

/**
 * The hosted page runs the service's own script and style and nothing else, is never framed, and
 * sends no referrer (its address carries the client secret until the drop-in takes it off). It frames
 * the card forms: the sandbox's beside it, the vault's on the vault's origin when that is apart.
 */
const hostedPagePolicy = (vaultOrigin: string | undefined) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    vaultOrigin === undefined ? "frame-src 'self'" : `frame-src 'self' ${vaultOrigin}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

const SESSION_ID = /^cs_[0-9A-Za-z]{1,64}$/

const hostedPage = (sessionId: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout</title>
<link rel="stylesheet" href="/v1/checkout/dropin.css"></head>
<body class="orchestrator-hosted-page"><main><div id="checkout"></div></main>
<script src="/v1/checkout/dropin.js" data-mount="#checkout" data-session-id="${sessionId}"></script>
</body></html>`

const notFoundPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>No such checkout page</h1></body></html>`

const staticAsset = (body: string, contentType: string) =>
  Effect.succeed(HttpServerResponse.text(body, {
    contentType,
    // Merchants' pages load the drop-in from here.
    headers: { "cache-control": "no-cache", "access-control-allow-origin": "*" }
  }))

/** A browser's preflight before the drop-in calls a session's endpoints from the merchant's origin. */
const preflight = Effect.succeed(HttpServerResponse.empty({
  status: 204,
  headers: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": "content-type, service-client-secret, idempotency-key",
    "access-control-max-age": "600"
  }
}))

/** The drop-in (`/v1/checkout/dropin.js`, one self-contained script, and its style) and the hosted page. */
export const checkoutPageRoutes = (vaultOrigin: string | undefined) =>
  HttpRouter.empty.pipe(
    HttpRouter.options("/v1/checkout/sessions/:id", preflight),
    HttpRouter.options("/v1/checkout/sessions/:id/:action", preflight),
    HttpRouter.get("/v1/checkout/dropin.js", staticAsset(dropinScript, "text/javascript; charset=utf-8")),
    HttpRouter.get("/v1/checkout/dropin.css", staticAsset(dropinStyle, "text/css; charset=utf-8")),
    HttpRouter.get(
      "/checkout/:id",
      Effect.map(HttpRouter.params, ({ id }) => {
        const headers = {
          "content-security-policy": hostedPagePolicy(vaultOrigin),
          "referrer-policy": "no-referrer",
          "x-content-type-options": "nosniff",
          "cache-control": "no-store"
        }
        // The page itself holds nothing of the session: the drop-in reads it with the client secret.
        return id !== undefined && SESSION_ID.test(id)
          ? HttpServerResponse.text(hostedPage(id), { contentType: "text/html; charset=utf-8", headers })
          : HttpServerResponse.text(notFoundPage, { status: 404, contentType: "text/html; charset=utf-8", headers })
      })
    )
  )
