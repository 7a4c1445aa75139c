import { Context, Effect, Layer, Option } from "effect"
import { forgetting, makeRecentReads } from "../caching/RecentReads.js"
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
  /** Organizations as read within the last second (see `RecentReads`): settings are read by every payment. */
  static readonly withRecentReads = Layer.effect(
    OrganizationsRepository,
    Effect.map(OrganizationsRepository, (stored) => {
      const found = makeRecentReads<Organization>(1_000)
      return OrganizationsRepository.of({
        ...stored,
        find: (id) => found.through(id, stored.find(id)),
        insert: forgetting([found], stored.insert),
        update: forgetting([found], stored.update)
      })
    })
  )

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
        findByName: (name) => Effect.sync(() => Option.fromNullable([...rows().values()].find((organization) => organization.name === name)))
      }
    })
  )
}
