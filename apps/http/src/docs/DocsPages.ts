import { escapeHtml } from "./EscapeHtml.js"
import { type Guide, renderInline } from "./Guides.js"

/**
 * The docs run only this origin's scripts. Scalar injects its style at run time and sets inline
 * styles, so styles may be inline; fonts are the system's. Requests "Send" makes go to this API only.
 */
export const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** Guides hold no script at all. */
export const GUIDE_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** The reference page: a banner on authentication and the guides, then Scalar, mounted by `/docs/docs.js`. */
export const referencePage = (guides: ReadonlyArray<Guide>) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment Orchestration API: reference and guides</title>
<link rel="stylesheet" href="/docs/docs.css"></head>
<body>
<header class="docs-banner" id="authentication">
<strong>Authentication.</strong> Send your secret key with every request:
<code>Authorization: Bearer sk_test_…</code> (test mode, the sandbox PSP; <code>sk_live_…</code> is live mode).
To try requests from this page, paste a test key in <em>Authentication</em> (<code>bearer</code>,
<em>Bearer Token</em>, beside the introduction), then press an operation's <em>Test Request</em> and
<em>Send</em>: the key stays in this page only, is never stored, and is gone when you reload.
Each <em>Send</em> gives an example's <code>Idempotency-Key</code> (<code>example-…</code>) a fresh value, so it
never meets a key you used before (the same key with another body is refused, 422); a key you type is
sent as typed. <a href="/docs/guides">Guides</a>:
${guides.map((guide) => `<a href="/docs/guides/${guide.name}">${escapeHtml(guide.title)}</a>`).join(" · ")}
</header>
<div id="reference"></div>
<script src="/docs/scalar.js"></script>
<script src="/docs/docs.js"></script>
</body></html>`

const guideShell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: Payment Orchestration API</title>
<link rel="stylesheet" href="/docs/docs.css"></head>
<body><main class="guide">
<nav><a href="/docs">API reference</a> · <a href="/docs/guides">Guides</a></nav>
${body}
</main></body></html>`

export const guidesIndexPage = (guides: ReadonlyArray<Guide>) =>
  guideShell(
    "Guides",
    `<h1>Guides</h1>
<p>Short walkthroughs against the sandbox PSP, each tested: every command in them is run against a
fresh service by the repository's tests. Authenticate with <code>Authorization: Bearer sk_test_…</code>.</p>
<ol>${guides.map((guide) => `<li><a href="/docs/guides/${guide.name}">${escapeHtml(guide.title)}</a><br>${renderInline(guide.summary)}</li>`).join("\n")}</ol>`
  )

export const guidePage = (guide: Guide, html: string) => guideShell(guide.title, html)

export const notFoundPage = guideShell("Not found", "<h1>No such guide</h1><p>See <a href=\"/docs/guides\">the guides</a>.</p>")
