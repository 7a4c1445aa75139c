import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { DefaultProviderInvalid, IdempotencyKeyInUse, IdempotencyKeyReused, OrganizationView, UpdateOrganization } from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export class OrganizationApi extends HttpApiGroup.make("organization")
  .add(
    HttpApiEndpoint.get("retrieve", "/organization")
      .addSuccess(OrganizationView)
      .annotate(OpenApi.Summary, "The organization, as this key's mode sees it")
      .annotate(OpenApi.Description, "Its id and name, this mode's default provider and how payments are routed (`payments_routing`).")
  )
  .add(
    HttpApiEndpoint.patch("update", "/organization")
      .setHeaders(OptionalIdempotencyKey)
      .setPayload(UpdateOrganization)
      .addSuccess(OrganizationView)
      .addError(apiErrorOf(IdempotencyKeyInUse))
      .addError(apiErrorOf(DefaultProviderInvalid))
      .addError(apiErrorOf(IdempotencyKeyReused))
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
  .annotate(
    OpenApi.Description,
    "The organization owns every object; its test and live data are kept apart, and each mode has its own " +
      "default provider and routing setting. Organizations and their keys are created by the operator " +
      "(`bin/orchestrator org create`, `bin/orchestrator keys create`)."
  )
{}
