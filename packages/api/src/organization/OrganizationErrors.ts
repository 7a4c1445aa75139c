import { echoed } from "@orchestrator/core"
import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith } from "../ApiError.js"

export const OrganizationErrors = apiErrors({
  DefaultProviderInvalid: {
    status: 422,
    type: "invalid_request_error",
    codes: ["default_provider_invalid"],
    description: "The default provider must be a connection of this mode that is not disabled"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { DefaultProviderInvalid } = OrganizationErrors

export const organizationFailures = {
  DefaultProviderInvalid: (error: Domain.DefaultProviderInvalid) =>
    failWith(DefaultProviderInvalid, { message: `Cannot make '${echoed(error.provider)}' the default: ${error.reason}.`, param: "default_provider" })
}
