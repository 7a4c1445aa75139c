import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { Organization } from "./Organization.js"

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
}>() {
  static readonly layerMemory = Layer.effect(
    OrganizationsRepository,
    Effect.map(MemoryStore, (store) => {
      const rows = () => store.table<Organization>("organizations")
      const save = (organization: Organization) => Effect.sync(() => void rows().set(organization.id, organization))
      return {
        insert: save,
        update: save,
        find: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
        lock: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
        findByName: (name) =>
          Effect.sync(() => Option.fromNullable([...rows().values()].find((organization) => organization.name === name)))
      }
    })
  )
}
