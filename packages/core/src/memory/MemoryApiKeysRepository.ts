import { Effect, Layer, Option } from "effect"
import type { ApiKey } from "../domain/tenancy/ApiKey.js"
import { ApiKeysRepository } from "../ports/ApiKeysRepository.js"
import { MemoryStore } from "./MemoryStore.js"

/** `ApiKeysRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryApiKeysRepository = Layer.effect(
  ApiKeysRepository,
  Effect.map(MemoryStore, (store) => {
    const rows = () => store.table<ApiKey>("api_keys")
    const save = (key: ApiKey) => Effect.sync(() => void rows().set(key.id, key))
    return {
      insert: save,
      update: save,
      findByHash: (hash) => Effect.sync(() => Option.fromNullable([...rows().values()].find((key) => key.key_hash === hash))),
      find: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
      listForOrganization: (organizationId) => Effect.sync(() => [...rows().values()].filter((key) => key.organization_id === organizationId))
    }
  })
)
