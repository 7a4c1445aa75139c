import { Effect, Layer, Option } from "effect"
import type { Organization } from "../domain/tenancy/Organization.js"
import { OrganizationsRepository } from "../ports/OrganizationsRepository.js"
import { MemoryStore } from "./MemoryStore.js"

/** `OrganizationsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryOrganizationsRepository = Layer.effect(
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
