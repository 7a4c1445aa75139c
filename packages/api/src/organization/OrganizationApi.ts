import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/tenancy/Organizations"
import { OrganizationView, UpdateOrganization } from "@orchestrator/core/tenancy/Organization"
import { ApiError, failWith } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { OptionalIdempotencyKey } from "../Headers.js"
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../idempotency/IdempotencyErrors.js"

export class DefaultProviderInvalid extends ApiError<DefaultProviderInvalid>()("DefaultProviderInvalid", {
  status: 422,
  type: "invalid_request_error",
  codes: ["default_provider_invalid"],
  description: "The default provider must be a connection of this mode that is not disabled"
}) {
  readonly _tag = "DefaultProviderInvalid" as const
}

export const organizationFailures = {
  DefaultProviderInvalid: (error: Domain.DefaultProviderInvalid) =>
    failWith(DefaultProviderInvalid, { message: `Cannot make '${echoed(error.provider)}' the default: ${error.reason}.`, param: "default_provider" })
}

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
