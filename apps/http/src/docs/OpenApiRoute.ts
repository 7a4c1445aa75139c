import { HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Api } from "@orchestrator/api"
import { Effect } from "effect"

/**
 * The document with its recorded examples, encoded once. Built on its first request, not when the
 * routes are (the framework's `middlewareOpenApi` builds it at every process's start): most
 * processes never serve it, and building it allocates megabytes an idle process then keeps.
 */
let encoded: Uint8Array | undefined
const documentBytes = () => (encoded ??= new TextEncoder().encode(JSON.stringify(OpenApi.fromApi(Api))))

/** `/v1/openapi.json`: the contract, as the reference at `/docs` and the typed clients read it. */
export const OpenApiRouteLive = HttpApiBuilder.Router.use((router) =>
  router.get("/v1/openapi.json", Effect.sync(() => HttpServerResponse.uint8Array(documentBytes(), { contentType: "application/json" })))
)
