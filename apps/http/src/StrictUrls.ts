import { type HttpApiEndpoint, type HttpApiGroup, type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { failWith } from "@orchestrator/api/ApiError"
import { InvalidRequest } from "@orchestrator/api/CommonErrors"
import { echoed } from "@orchestrator/api/EchoedText"
import { Effect, Option } from "effect"

/** Matches a path the way the router does: `:param` segments, any case, a trailing slash or not. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}/?$`, "i")

const endpoints = Object.values(Api.groups as unknown as Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>).flatMap((group) =>
  Object.values(group.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>).map((endpoint) => ({
    method: endpoint.method,
    pattern: patternOf(endpoint.path),
    takesQuery: Option.isSome(endpoint.urlParamsSchema)
  }))
)

/**
 * Whether the request is for an endpoint of the API that takes no query parameters at all. An
 * endpoint with a query schema checks its own parameters (after authentication, like the body).
 */
const takesNoQuery = (method: string, path: string): boolean => {
  const matching = endpoints.filter((endpoint) =>
    (endpoint.method === method || (method === "HEAD" && endpoint.method === "GET")) && endpoint.pattern.test(path)
  )
  return matching.length > 0 && matching.every((endpoint) => !endpoint.takesQuery)
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
      if (names.length > 0 && takesNoQuery(request.method, path.replace(/\/{2,}/g, "/"))) {
        return yield* unknownParameter(names[0]!)
      }
    }
    return yield* app
  })
