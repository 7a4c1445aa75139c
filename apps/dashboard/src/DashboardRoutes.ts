import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { bundleDashboard } from "./DashboardBundle.js"

/**
 * Only this origin's script, stylesheet and API: no inline script or style, no other origin, no
 * framing, no form posted elsewhere. The key the page holds has nowhere else to go.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY"
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Orchestrator dashboard</title>
<link rel="stylesheet" href="/dashboard/app.css">
<script type="module" src="/dashboard/app.js"></script>
</head>
<body>
<noscript>The dashboard needs JavaScript.</noscript>
<div id="app" aria-live="polite"></div>
</body>
</html>
`

const respond = (body: string, contentType: string) =>
  HttpServerResponse.text(body, {
    contentType,
    headers: { ...SECURITY_HEADERS, "cache-control": "no-cache" }
  })

/**
 * `/dashboard`, its script and its stylesheet. The bundle is built once, on the first request that
 * needs it, and kept in memory; a failed build is tried again on the next request.
 */
export const makeDashboardRoutes = Effect.gen(function*() {
  const assets = yield* Effect.cachedInvalidateWithTTL(bundleDashboard, "365 days").pipe(
    Effect.map(([get, invalidate]) => Effect.tapError(get, () => invalidate))
  )
  const page = respond(PAGE, "text/html; charset=utf-8")
  return HttpRouter.empty.pipe(
    HttpRouter.get("/dashboard", page),
    HttpRouter.get(
      "/dashboard/app.js",
      Effect.flatMap(assets, ({ script }) => respond(script, "text/javascript; charset=utf-8")).pipe(Effect.orDie)
    ),
    HttpRouter.get(
      "/dashboard/app.css",
      Effect.flatMap(assets, ({ stylesheet }) => respond(stylesheet, "text/css; charset=utf-8")).pipe(Effect.orDie)
    )
  )
})
