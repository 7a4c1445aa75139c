import { type HttpApiEndpoint, type HttpApiGroup, type HttpApp, HttpServerError, HttpServerRequest, OpenApi } from "@effect/platform"
import { Api, failWith, InvalidRequest } from "@orchestrator/api"
import { echoed } from "@orchestrator/core"
import { Effect, Option } from "effect"

/** Matches a path the way the router does: `:param` segments, any case, a trailing slash or not. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}/?$`, "i")

/** The credentials an endpoint takes in the query, as the document declares them (`:id` is `{id}` there). */
const securityQueryOf = (document: OpenApi.OpenAPISpec, method: string, path: string): ReadonlySet<string> => {
  const operation = document.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase() as "get"]
  const schemes = document.components.securitySchemes as Record<string, { readonly in?: string; readonly name?: string }>
  return new Set(
    (operation?.security ?? []).flatMap((requirement) => Object.keys(requirement))
      .flatMap((scheme) => (schemes[scheme]?.in === "query" && schemes[scheme]?.name !== undefined ? [schemes[scheme]!.name!] : []))
  )
}

interface Endpoint {
  readonly method: string
  readonly pattern: RegExp
  readonly takesQuery: boolean
  readonly credentials: ReadonlySet<string>
}

/**
 * Every endpoint as this check needs it, made on the first request with a query: the document it
 * reads (with its examples) is then dropped, not held by every process from its start.
 */
let endpointsMade: ReadonlyArray<Endpoint> | undefined
const endpoints = (): ReadonlyArray<Endpoint> => {
  if (endpointsMade !== undefined) return endpointsMade
  const document = OpenApi.fromApi(Api)
  endpointsMade = Object.values(Api.groups as unknown as Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>).flatMap((group) =>
    Object.values(group.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>).map((endpoint) => ({
      method: endpoint.method,
      pattern: patternOf(endpoint.path),
      takesQuery: Option.isSome(endpoint.urlParamsSchema),
      // A credential some endpoints take in the query (a checkout session's client secret).
      credentials: securityQueryOf(document, endpoint.method, endpoint.path)
    }))
  )
  return endpointsMade
}

/**
 * The query parameter the request should not have: the first one an endpoint without a query schema
 * does not take as a credential. An endpoint with a query schema checks its own parameters (after
 * authentication, like the body); a path no endpoint matches is left to the router.
 */
const undeclaredIn = (method: string, path: string, names: ReadonlyArray<string>): string | undefined => {
  const matching = endpoints().filter((endpoint) =>
    (endpoint.method === method || (method === "HEAD" && endpoint.method === "GET")) && endpoint.pattern.test(path)
  )
  if (matching.length === 0 || matching.some((endpoint) => endpoint.takesQuery)) return undefined
  return names.find((name) => !matching.some((endpoint) => endpoint.credentials.has(name)))
}

const unknownParameter = (name: string) =>
  failWith(InvalidRequest, {
    code: "parameter_unknown",
    message: `Received unknown parameter: ${echoed(name)}.`,
    param: echoed(name)
  })

/**
 * Refuses what the router would silently reinterpret: `;` or `#` in the path (the router would cut
 * the path there and read the rest as query parameters, so `/v1/payments/pay_1;x=1` is no route of
 * this API), a query parameter named `__proto__` (copying the query into an object drops it without
 * a word), and query parameters on an endpoint that takes none.
 */
export const strictUrls = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const queryAt = request.url.indexOf("?")
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt)
    if (path.includes(";") || path.includes("#")) return yield* Effect.fail(new HttpServerError.RouteNotFound({ request }))
    if (queryAt !== -1) {
      const names = [...new URLSearchParams(request.url.slice(queryAt + 1)).keys()]
      if (names.includes("__proto__")) return yield* unknownParameter("__proto__")
      const undeclared = undeclaredIn(request.method, path.replace(/\/{2,}/g, "/"), names)
      if (undeclared !== undefined) return yield* unknownParameter(undeclared)
    }
    return yield* app
  })
