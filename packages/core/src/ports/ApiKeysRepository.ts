import { Context, Effect, Option } from "effect"
import type { ApiKey } from "../domain/tenancy/ApiKey.js"

export class ApiKeysRepository extends Context.Tag("core/ApiKeysRepository")<ApiKeysRepository, {
  readonly insert: (key: ApiKey) => Effect.Effect<void>
  readonly update: (key: ApiKey) => Effect.Effect<void>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>>
  readonly find: (id: string) => Effect.Effect<Option.Option<ApiKey>>
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<ApiKey>>
}>() {}
