import { Context, Effect, Layer, Option } from "effect"
import { forgetting, makeRecentReads } from "../caching/RecentReads.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { ApiKey } from "./ApiKey.js"

export class ApiKeysRepository extends Context.Tag("core/ApiKeysRepository")<ApiKeysRepository, {
  readonly insert: (key: ApiKey) => Effect.Effect<void>
  readonly update: (key: ApiKey) => Effect.Effect<void>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>>
  readonly find: (id: string) => Effect.Effect<Option.Option<ApiKey>>
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<ApiKey>>
}>() {
  /**
   * Keys as found by their hash within the last five seconds (see `RecentReads`): every request is
   * authenticated, few keys change. A key revoked by this process stops at once, by another within
   * five seconds. Unknown hashes are never kept.
   */
  static readonly withRecentReads = Layer.effect(
    ApiKeysRepository,
    Effect.map(ApiKeysRepository, (stored) => {
      const byHash = makeRecentReads<ApiKey>(5_000)
      return ApiKeysRepository.of({
        ...stored,
        findByHash: (hash) => byHash.through(hash, stored.findByHash(hash)),
        insert: forgetting([byHash], stored.insert),
        update: forgetting([byHash], stored.update)
      })
    })
  )

  static readonly layerMemory = Layer.effect(
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
}
