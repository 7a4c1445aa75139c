import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { OrganizationView, UpdateOrganization } from "@orchestrator/core/tenancy/Organization"
import { Authorization } from "../Authorization.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"
import { DefaultProviderInvalid } from "./OrganizationErrors.js"

export class OrganizationApi extends HttpApiGroup.make("organization")
  .add(
    HttpApiEndpoint.get("retrieve", "/organization")
      .addSuccess(OrganizationView)
      .annotate(OpenApi.Summary, "The organization, as this key's mode sees it")
  )
  .add(
    HttpApiEndpoint.patch("update", "/organization")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateOrganization)
      .addSuccess(OrganizationView)
      .addError(IdempotencyKeyInUse)
      .addError(DefaultProviderInvalid)
      .addError(IdempotencyKeyReused)
      .annotate(OpenApi.Summary, "Choose this mode's default provider, and how payments are routed")
      .annotate(
        OpenApi.Description,
        "`payments_routing`: `default` sends every payment that forces no provider to the default provider; " +
          "`rules` evaluates the routing rules first, with the default as the last resort, and fails over."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Organization")
{}
