import { RESOURCE_LIMITS, type ResourceLimitExceeded as Domain } from "@orchestrator/core"
import { apiErrors, failWith } from "./ApiError.js"

export const ResourceLimitErrors = apiErrors({
  ResourceLimitExceeded: {
    status: 422,
    type: "invalid_request_error",
    codes: ["resource_limit_exceeded"],
    description: `The organization already has as many of these as it may keep in this mode: ` +
      `${RESOURCE_LIMITS.routing_rules.limit} routing rules, ${RESOURCE_LIMITS.webhook_endpoints.limit} webhook ` +
      `endpoints, ${RESOURCE_LIMITS.provider_connections.limit} provider connections`
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { ResourceLimitExceeded } = ResourceLimitErrors

export const resourceLimitFailures = {
  ResourceLimitExceeded: (error: Domain) =>
    failWith(ResourceLimitExceeded, {
      message: `This organization has reached its limit of ${error.limit} ${
        RESOURCE_LIMITS[error.resource].label
      } in this mode. Delete one before creating another.`
    })
}
