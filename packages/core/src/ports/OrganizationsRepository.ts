import { Context, Effect, Option } from "effect"
import type { Organization } from "../domain/tenancy/Organization.js"

export class OrganizationsRepository extends Context.Tag("core/OrganizationsRepository")<OrganizationsRepository, {
  readonly insert: (organization: Organization) => Effect.Effect<void>
  readonly update: (organization: Organization) => Effect.Effect<void>
  readonly find: (id: string) => Effect.Effect<Option.Option<Organization>>
  /**
   * Finds it and holds it until the transaction ends: settings and the connections they name
   * change one at a time per organization.
   */
  readonly lock: (id: string) => Effect.Effect<Option.Option<Organization>>
  readonly findByName: (name: string) => Effect.Effect<Option.Option<Organization>>
}>() {}
