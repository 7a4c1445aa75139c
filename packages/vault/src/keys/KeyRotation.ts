import type { Job } from "@orchestrator/core"
import { Effect, Metric, Option } from "effect"
import { rewrapDataKey } from "../crypto/Envelope.js"
import type { VaultStore } from "../storage/VaultStore.js"
import { KeyProvider } from "./KeyProvider.js"

/** Cards per KEK version: when a version reads 0, no card needs it and it may leave the keyring. */
export const vaultCards = Metric.gauge("orchestrator_vault_cards", {
  description: "Cards whose data key is wrapped under each key-encryption-key version (key_version); a version at 0 may be removed"
})

/** Cards re-wrapped per transaction: small enough that a batch holds its row locks briefly. */
const BATCH = 100

/** Every version this process has reported, so one that empties reads 0 instead of vanishing. */
const reported = new Set<number>()

/** Sets `orchestrator_vault_cards{key_version}` from the table. */
export const reportKeyVersions = (store: VaultStore["Type"]) =>
  Effect.gen(function*() {
    const counts = yield* store.keyVersionCounts
    const now = new Map(counts.map(({ cards, keyVersion }) => [keyVersion, cards]))
    for (const version of now.keys()) reported.add(version)
    for (const version of reported) yield* Metric.set(Metric.tagged(vaultCards, "key_version", String(version)), now.get(version) ?? 0)
  })

/**
 * One pass of key rotation: every card under a KEK version older than the current one gets its data
 * key re-wrapped under the current version, in batches, each card's row rewritten in one update. A
 * pass stopped anywhere (a crash, a deploy) loses nothing: a row is either as it was (its old version
 * still listed opens it) or re-wrapped, and the next pass goes on with what is left. A card that does
 * not unwrap is left as it is and the operator told, by ids. Returns how many cards were re-wrapped.
 */
export const rotateKeys = (keys: KeyProvider["Type"], store: VaultStore["Type"], batch = BATCH) =>
  Effect.gen(function*() {
    const rewrap = (card: { readonly id: string; readonly keyVersion: number; readonly wrappedKey: Uint8Array }) =>
      rewrapDataKey(card.id, card.keyVersion, card.wrappedKey).pipe(
        Effect.provideService(KeyProvider, keys),
        Effect.map((next) => Option.some({ id: card.id, ...next })),
        Effect.catchTag("VaultKeyFailure", (failure) =>
          Effect.as(
            Effect.logWarning(`Key rotation left card ${card.id} under key version ${card.keyVersion}: ${failure.reason}.`),
            Option.none()
          ))
      )
    let afterId = ""
    let rewrapped = 0
    while (true) {
      const done = yield* store.rewrapBatch(keys.currentVersion, afterId, batch, rewrap)
      rewrapped += done.rewrapped
      if (done.lastId === null || done.claimed < batch) return rewrapped
      afterId = done.lastId
    }
  })

/** The worker's job: a rotation pass every minute (nothing to do costs one query on the index by key version), then the gauge. */
export const keyRotationJob = (keys: KeyProvider["Type"], store: VaultStore["Type"]): Job => ({
  name: "vault-key-rotation",
  every: "1 minute",
  run: Effect.zipLeft(rotateKeys(keys, store), reportKeyVersions(store))
})
