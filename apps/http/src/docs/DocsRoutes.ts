import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { DOCS_POLICY, GUIDE_POLICY, guidePage, guidesIndexPage, notFoundPage, referencePage } from "./DocsPages.js"
import { loadGuides, renderGuide } from "./Guides.js"
import { loadScalarScript } from "./ScalarScript.js"

const asset = (name: string) => readFileSync(new URL(`./browser/${name}`, import.meta.url), "utf8")

const pageHeaders = (policy: string) => ({
  "content-security-policy": policy,
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-cache"
})

const html = (body: string, policy: string, status = 200) =>
  Effect.succeed(HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers: pageHeaders(policy) }))

const fileHeaders = { "x-content-type-options": "nosniff", "cache-control": "no-cache" }

const file = (body: string, contentType: string) => Effect.succeed(HttpServerResponse.text(body, { contentType, headers: fileHeaders }))

/** Scalar's 3.3 MB bundle: read and encoded once, on its first request, not at every process's start. */
const scalarScript = () => {
  let bytes: Uint8Array | undefined
  return Effect.sync(() =>
    HttpServerResponse.uint8Array(bytes ??= new TextEncoder().encode(loadScalarScript()), {
      contentType: "text/javascript; charset=utf-8",
      headers: fileHeaders
    })
  )
}

/**
 * `/docs`: the API reference (Scalar over `/v1/openapi.json`) and the guides, every byte from this
 * origin (it works offline and tells no third party who reads it), under a policy that runs no other
 * script. The small files are read once, when the routes are built.
 */
export const makeDocsRoutes = () => {
  const guides = loadGuides()
  const rendered = new Map(guides.map((guide) => [guide.name, guidePage(guide, renderGuide(guide))]))
  return HttpRouter.empty.pipe(
    HttpRouter.get("/docs", html(referencePage(guides), DOCS_POLICY)),
    HttpRouter.get("/docs/scalar.js", scalarScript()),
    HttpRouter.get("/docs/docs.js", file(asset("docs.js"), "text/javascript; charset=utf-8")),
    HttpRouter.get("/docs/docs.css", file(asset("docs.css"), "text/css; charset=utf-8")),
    HttpRouter.get("/docs/guides", html(guidesIndexPage(guides), GUIDE_POLICY)),
    HttpRouter.get(
      "/docs/guides/:name",
      Effect.flatMap(HttpRouter.params, ({ name }) => {
        const page = name === undefined ? undefined : rendered.get(name)
        return page === undefined ? html(notFoundPage, GUIDE_POLICY, 404) : html(page, GUIDE_POLICY)
      })
    )
  )
}
