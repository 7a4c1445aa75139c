import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { CARD_FORM_SCRIPT, CARD_FORM_STYLE } from "./CardFormAssets.js"
import { TEST_CARDS } from "./SandboxTokens.js"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** The test cards the form knows, by number; nothing else of the sandbox reaches the browser. */
const cards = TEST_CARDS.map(({ card, number, token }) => ({ number, token, brand: card.brand, last4: card.last4 }))

const script = CARD_FORM_SCRIPT.replace("/*CARDS*/ []", JSON.stringify(cards))
const style = CARD_FORM_STYLE

const LABELS = {
  en: {
    title: "Card details",
    number: "Card number",
    expiry: "Expiry (MM / YY)",
    cvc: "Security code (CVC)",
    pay: "Pay",
    hint: "Sandbox: no real card is charged."
  },
  fr: {
    title: "Données de la carte",
    number: "Numéro de carte",
    expiry: "Expiration (MM / AA)",
    cvc: "Code de sécurité (CVC)",
    pay: "Payer",
    hint: "Bac à sable : aucune vraie carte n'est débitée."
  },
  de: {
    title: "Kartendaten",
    number: "Kartennummer",
    expiry: "Ablaufdatum (MM / JJ)",
    cvc: "Prüfnummer (CVC)",
    pay: "Bezahlen",
    hint: "Sandbox: Es wird keine echte Karte belastet."
  }
} as const

/** The frame only talks to the page that embeds it, and only scripts and styles of its own run in it. */
const FRAME_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'"

const field = (id: string, label: string, attributes: string, wide: boolean) =>
  `<div class="field${wide ? " wide" : ""}"><label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" ${attributes} aria-describedby="${id}-error" required>
<span class="error" id="${id}-error" role="alert"></span></div>`

const formPage = (locale: keyof typeof LABELS, parentOrigin: string) => {
  const text = LABELS[locale]
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(text.title)}</title>
<link rel="stylesheet" href="/sandbox/card-form.css"></head><body>
<form id="card-form" data-parent-origin="${escapeHtml(parentOrigin)}" novalidate aria-label="${escapeHtml(text.title)}">
${field("card-number", text.number, `inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"`, true)}
${field("card-expiry", text.expiry, `inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"`, false)}
${field("card-cvc", text.cvc, `inputmode="numeric" autocomplete="cc-csc" placeholder="123"`, false)}
<p class="hint">${escapeHtml(text.hint)}</p>
<button class="hidden-submit" type="submit" tabindex="-1" aria-hidden="true">${escapeHtml(text.pay)}</button>
</form><script src="/sandbox/card-form.js"></script></body></html>`
}

const asset = (body: string, contentType: string) => HttpServerResponse.text(body, { contentType, headers: { "cache-control": "no-cache" } })

/**
 * The sandbox's hosted card fields, like a real PSP's: a small form it serves for an iframe, which
 * turns a test card number into a sandbox token in the browser. `parent_origin` is the page that
 * embeds it, the only one it sends the token to.
 */
export const SandboxCardFormRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/sandbox/card-form",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = new URLSearchParams(request.url.split("?")[1] ?? "")
      const locale = query.get("locale") ?? "en"
      const parentOrigin = query.get("parent_origin") ?? ""
      let origin: string
      try {
        origin = new URL(parentOrigin).origin
      } catch {
        return HttpServerResponse.text("parent_origin must be the embedding page's origin", { status: 400 })
      }
      return HttpServerResponse.text(formPage(locale in LABELS ? locale as keyof typeof LABELS : "en", origin), {
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": FRAME_POLICY, "referrer-policy": "no-referrer", "cache-control": "no-store" }
      })
    })
  ),
  HttpRouter.get("/sandbox/card-form.js", Effect.succeed(asset(script, "text/javascript; charset=utf-8"))),
  HttpRouter.get("/sandbox/card-form.css", Effect.succeed(asset(style, "text/css; charset=utf-8")))
)
