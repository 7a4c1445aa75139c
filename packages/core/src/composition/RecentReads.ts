import { Clock, Effect, Layer, Option } from "effect"
import type { ProviderConnection } from "../domain/providers/ProviderConnection.js"
import type { ApiKey } from "../domain/tenancy/ApiKey.js"
import type { Organization } from "../domain/tenancy/Organization.js"
import { ApiKeysRepository } from "../ports/ApiKeysRepository.js"
import { OrganizationsRepository } from "../ports/OrganizationsRepository.js"
import { ProviderConnectionsRepository } from "../ports/ProviderConnectionsRepository.js"

/**
 * What a repository read a moment ago, kept for `ttlMillis` so the hot path of every request (its
 * API key, its organization and connections) does not cost a database round trip each time. Only
 * found values are kept. The repository that owns it forgets everything on each of its own writes,
 * so a process always reads its own writes; another process's writes show within `ttlMillis`.
 */
export interface RecentReads<A> {
  readonly through: (key: string, read: Effect.Effect<Option.Option<A>>) => Effect.Effect<Option.Option<A>>
  readonly forgetAll: Effect.Effect<void>
}

export const makeRecentReads = <A>(ttlMillis: number, maxEntries = 10_000): RecentReads<A> => {
  const entries = new Map<string, { readonly value: A; readonly until: number }>()
  // A write between a read's start and its end must not let that read's (older) result be kept.
  let generation = 0
  return {
    through: (key, read) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const kept = entries.get(key)
        if (kept !== undefined && kept.until > at) return Option.some(kept.value)
        const started = generation
        const found = yield* read
        if (Option.isSome(found) && started === generation) {
          if (entries.size >= maxEntries) entries.clear()
          entries.set(key, { value: found.value, until: at + ttlMillis })
        }
        return found
      }),
    forgetAll: Effect.sync(() => {
      generation++
      entries.clear()
    })
  }
}

/** `write`, then everything `reads` kept is forgotten: a process reads its own writes. */
export const forgetting = <Args extends ReadonlyArray<unknown>, B, E, R>(
  reads: ReadonlyArray<Pick<RecentReads<unknown>, "forgetAll">>,
  write: (...args: Args) => Effect.Effect<B, E, R>
) =>
(...args: Args): Effect.Effect<B, E, R> => Effect.ensuring(write(...args), Effect.forEach(reads, (cache) => cache.forgetAll, { discard: true }))

/**
 * Keys as found by their hash within the last five seconds (see `RecentReads`): every request is
 * authenticated, few keys change. A key revoked by this process stops at once, by another within
 * five seconds. Unknown hashes are never kept.
 */
const apiKeysRecentReads = Layer.effect(
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

/** Organizations as read within the last second (see `RecentReads`): settings are read by every payment. */
const organizationsRecentReads = Layer.effect(
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

/**
 * The tenant's connections as read within the last second, for resolving every payment without a
 * round trip; this process's own writes (health included) are seen at once, another's within a second.
 */
const connectionsRecentReads = Layer.effect(
  ProviderConnectionsRepository,
  Effect.map(ProviderConnectionsRepository, (stored) => {
    const lists = makeRecentReads<ReadonlyArray<ProviderConnection>>(1_000)
    const write = <Args extends ReadonlyArray<unknown>, B>(f: (...args: Args) => Effect.Effect<B>) => forgetting([lists], f)
    return ProviderConnectionsRepository.of({
      ...stored,
      list: (tenant) =>
        Effect.map(
          lists.through(`${tenant.organizationId}/${tenant.livemode}`, Effect.map(stored.list(tenant), Option.some)),
          Option.getOrElse(() => [])
        ),
      insert: write(stored.insert),
      update: write(stored.update),
      markDeleted: write(stored.markDeleted),
      recordFailure: write(stored.recordFailure),
      recordSuccess: write(stored.recordSuccess),
      claimTrial: write(stored.claimTrial)
    })
  })
)

/**
 * What every request reads first (its API key, its organization and connections), kept a moment in
 * memory over whichever storage provides the three repositories.
 */
export const RepositoriesWithRecentReads = Layer.mergeAll(apiKeysRecentReads, organizationsRecentReads, connectionsRecentReads)
