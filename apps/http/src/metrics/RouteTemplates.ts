import { HttpApi } from "@effect/platform"
import { Api } from "@orchestrator/api"

/**
 * A request's route as a template (`/v1/payments/:id`), the label of the HTTP metrics: a raw path
 * holds ids and anything a client sends, which would make a series per request. The API's paths come
 * from its contract; the pages beside it are named by their prefix; anything else is `unmatched`.
 */
export const UNMATCHED = "unmatched"

/** The pages served beside the API, each counted as one route. */
const PAGE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ["/v1/checkout/", "/v1/checkout/*"],
  ["/checkout/", "/checkout/*"],
  ["/sandbox/", "/sandbox/*"],
  ["/dashboard", "/dashboard/*"],
  ["/docs", "/docs"],
  ["/v1/openapi.json", "/v1/openapi.json"]
]

type Template = ReadonlyArray<string>

/** Templates by segment count, the most literal first: `/v1/payments/search` wins over `/v1/payments/:id`. */
const byLength = (paths: ReadonlyArray<string>) => {
  const templates = new Map<number, Array<Template>>()
  for (const path of new Set(paths)) {
    const segments = path.split("/")
    const same = templates.get(segments.length) ?? []
    same.push(segments)
    templates.set(segments.length, same)
  }
  const literals = (template: Template) => template.filter((segment) => !segment.startsWith(":")).length
  for (const same of templates.values()) same.sort((a, b) => literals(b) - literals(a))
  return templates
}

let apiTemplates: Map<number, Array<Template>> | undefined = undefined

const apiPaths = () => {
  const paths: Array<string> = []
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => paths.push(endpoint.path) })
  return paths
}

/** Matches `path` (without its query) against the route templates `paths` (the API's by default). */
export const routeTemplateOf = (path: string, templates: Map<number, Array<Template>> = (apiTemplates ??= byLength(apiPaths()))): string => {
  const segments = path.split("/")
  const candidates = templates.get(segments.length)
  if (candidates !== undefined) {
    for (const template of candidates) {
      if (template.every((part, at) => part === segments[at] || (part.startsWith(":") && segments[at] !== ""))) return template.join("/")
    }
  }
  for (const [prefix, name] of PAGE_PREFIXES) if (path.startsWith(prefix)) return name
  return UNMATCHED
}

/** Templates of other paths, for tests. */
export const routeTemplates = byLength

const METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** The request method as a label: the standard ones, every other `other`. */
export const methodLabel = (method: string) => METHODS.has(method) ? method : "other"
