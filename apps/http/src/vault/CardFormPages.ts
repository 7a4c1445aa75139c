import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFileSync } from "node:fs"

const asset = (name: string) => readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8")
const formScript = asset("card-form.js")
const formStyle = asset("card-form.css")
const mountScript = asset("vault.js")

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * The form runs its own script and style only, talks to its own origin only, and may be framed by the
 * one origin that declared itself (the page it sends the token to), by no other.
 */
export const cardFormPolicy = (parentOrigin: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${parentOrigin}`
  ].join("; ")

const field = (id: string, label: string, attributes: string, wide: boolean) =>
  `<div class="field${wide ? " wide" : ""}"><label for="${id}">${label}</label>
<input id="${id}" ${attributes} aria-describedby="${id}-error">
<span class="error" id="${id}-error" role="alert"></span></div>`

const formPage = (parentOrigin: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card details</title>
<link rel="stylesheet" href="/vault/card-form.css"></head><body>
<form id="card-form" data-parent-origin="${escapeHtml(parentOrigin)}" novalidate aria-label="Card details">
${field("card-number", "Card number", `inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required`, true)}
${field("card-expiry", "Expiry (MM / YY)", `inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" required`, false)}
${field("card-cvc", "Security code (CVC)", `inputmode="numeric" autocomplete="cc-csc" placeholder="123" required`, false)}
${field("card-name", "Name on card", `autocomplete="cc-name"`, true)}
<button class="hidden-submit" type="submit" tabindex="-1" aria-hidden="true">Pay</button>
</form><script src="/vault/card-form.js"></script></body></html>`

/** An `http(s)` origin written as one (`https://shop.example`), else `undefined`. */
const originOf = (text: string | null): string | undefined => {
  if (text === null) return undefined
  try {
    const url = new URL(text)
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === text ? url.origin : undefined
  } catch {
    return undefined
  }
}

const PAGE_HEADERS = { "referrer-policy": "no-referrer", "x-content-type-options": "nosniff", "cache-control": "no-store" }

const script = (body: string, contentType: string, crossOrigin: boolean) =>
  Effect.succeed(HttpServerResponse.text(body, {
    contentType,
    headers: { "cache-control": "no-cache", "x-content-type-options": "nosniff", ...(crossOrigin ? { "access-control-allow-origin": "*" } : {}) }
  }))

/**
 * The vault's card form (`/vault/card-form?origin=<the embedding page's origin>`, its credential in
 * the fragment), its assets, and the script a merchant's page includes to mount it
 * (`/vault/v1/vault.js`). Served on the vault's origin (`CardFormOrigin.ts`).
 */
export const CardFormRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/vault/card-form",
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const origin = originOf(new URLSearchParams(request.url.split("?")[1] ?? "").get("origin"))
      if (origin === undefined) {
        return HttpServerResponse.text("origin must be the embedding page's origin, e.g. https://shop.example", {
          status: 400,
          headers: { ...PAGE_HEADERS, "content-security-policy": "default-src 'none'; frame-ancestors 'none'" }
        })
      }
      return HttpServerResponse.text(formPage(origin), {
        contentType: "text/html; charset=utf-8",
        headers: { ...PAGE_HEADERS, "content-security-policy": cardFormPolicy(origin) }
      })
    })
  ),
  HttpRouter.get("/vault/card-form.js", script(formScript, "text/javascript; charset=utf-8", false)),
  HttpRouter.get("/vault/card-form.css", script(formStyle, "text/css; charset=utf-8", false)),
  HttpRouter.get("/vault/v1/vault.js", script(mountScript, "text/javascript; charset=utf-8", true))
)
