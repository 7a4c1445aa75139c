import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { PageQuery } from "@orchestrator/core/domain/Pagination"
import { PathId } from "@orchestrator/core/domain/Text"
import { Schema } from "effect"

/** The `:id` of a resource's path. */
export const ById = Schema.Struct({ id: PathId })

/** A list's query when it takes no filter: only the page's, and nothing else. */
export const PageOnlyQuery = Schema.Struct(PageQuery).annotations({ parseOptions: { onExcessProperty: "error" } })

/** `GET …/:id`: one resource this key can see, or its 404; every resource answers it the same way. */
export const retrieveById = <
  S extends Schema.Schema.Any,
  E extends Schema.Schema.Any,
  const Name extends string = "retrieve"
>(
  path: HttpApiEndpoint.PathSegment,
  resource: S,
  notFound: E,
  summary: string,
  name: Name = "retrieve" as Name
) =>
  HttpApiEndpoint.get(name, path)
    .setPath(ById)
    .addSuccess(resource)
    .addError(notFound)
    .annotate(OpenApi.Summary, summary)

/** `GET …`: one page of a resource, filtered by `query`. */
export const listPage = <
  Q extends Schema.Schema.Any,
  L extends Schema.Schema.Any,
  const Name extends string = "list"
>(
  path: HttpApiEndpoint.PathSegment,
  query: Q & HttpApiEndpoint.HttpApiEndpoint.ValidateUrlParams<Q>,
  page: L,
  summary: string,
  name: Name = "list" as Name
) =>
  HttpApiEndpoint.get(name, path)
    .setUrlParams(query)
    .addSuccess(page)
    .annotate(OpenApi.Summary, summary)
