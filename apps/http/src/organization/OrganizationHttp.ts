import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { OrganizationApi } from "@orchestrator/api/organization/OrganizationApi"
import { organizationFailures } from "@orchestrator/api/organization/OrganizationErrors"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Organizations } from "@orchestrator/core/tenancy/Organizations"
import { Effect } from "effect"
import { idempotent } from "../IdempotentEndpoint.js"

export const OrganizationHttpLive = HttpApiBuilder.group(Api, "organization", (handlers) =>
  Effect.map(Organizations, (organizations) =>
    handlers
      .handle("retrieve", () => Effect.flatMap(CurrentTenant, organizations.settings))
      .handle("update", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          idempotent(
            OrganizationApi.endpoints.update,
            { key: headers["idempotency-key"], payload },
            organizations.updateSettings(tenant, payload).pipe(answeringWith(organizationFailures))
          )))))
