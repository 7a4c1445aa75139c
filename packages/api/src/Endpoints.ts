import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { type FailureClass, InvalidCursor, PageQuery, PathId } from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "./ApiError.js"

/** The `:id` of a resource's path. */
export const ById = Schema.Struct({ id: PathId })

/** The URL params of a list: its optional `filters` and the page; any other parameter is refused. */
export const ListQuery = <Filters extends Schema.Struct.Fields>(filters: Filters) =>
  Schema.Struct({ ...filters, ...PageQuery }).annotations({ parseOptions: { onExcessProperty: "error" } })

/** `GET …/:id`: one resource this key can see, or its 404 (`notFound`, the core's failure); every resource answers it the same way. */
export const retrieveById = <S extends Schema.Schema.Any, C extends FailureClass>(
  path: HttpApiEndpoint.PathSegment,
  resource: S,
  notFound: C,
  summary: string
) =>
  HttpApiEndpoint.get("retrieve", path)
    .setPath(ById)
    .addSuccess(resource)
    .addError(apiErrorOf(notFound))
    .annotate(OpenApi.Summary, summary)

/** `GET …`: one page of a resource, filtered by `query`; a `starting_after` the key cannot see is a 400. */
export const listPage = <Q extends Schema.Schema.Any, L extends Schema.Schema.Any>(
  path: HttpApiEndpoint.PathSegment,
  query: Q & HttpApiEndpoint.HttpApiEndpoint.ValidateUrlParams<Q>,
  page: L,
  summary: string
) =>
  HttpApiEndpoint.get("list", path)
    .setUrlParams(query)
    .addSuccess(page)
    .addError(apiErrorOf(InvalidCursor))
    .annotate(OpenApi.Summary, summary)
