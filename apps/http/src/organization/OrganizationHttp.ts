import { HttpApiBuilder } from "@effect/platform"
import { Api, OrganizationApi } from "@orchestrator/api"
import { CurrentTenant, Organizations } from "@orchestrator/core"
import { Effect } from "effect"
import { underKey } from "../KeyedAnswers.js"

export const OrganizationHttpLive = HttpApiBuilder.group(Api, "organization", (handlers) =>
  Effect.map(Organizations, (organizations) =>
    handlers
      .handle("retrieve", () => Effect.flatMap(CurrentTenant, organizations.settings))
      .handle("update", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) =>
          underKey(OrganizationApi.endpoints.update, { key: headers["idempotency-key"], payload }, {}, () => organizations.updateSettings(tenant, payload))))))
