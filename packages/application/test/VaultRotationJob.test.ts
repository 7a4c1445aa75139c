import { describe, expect, it } from "@effect/vitest"
import { CardVault, Jobs, KeyMaterial } from "@orchestrator/core"
import { KeyProvider, localKeyProvider } from "@orchestrator/vault"
import { vaultCards } from "@orchestrator/vault"
import { Effect, Layer, Metric, TestClock } from "effect"
import { applicationLayer, memoryStorage } from "../src/Application.js"

const keyring = (versions: ReadonlyArray<number>) =>
  Layer.succeed(KeyProvider, localKeyProvider(new Map(versions.map((version) => [version, new Uint8Array(32).fill(version)])), "test"))

/** The application as the worker runs it, on in-memory storage. */
const worker = applicationLayer({
  storage: memoryStorage,
  keys: KeyMaterial.fromMasterSecret(new Uint8Array(32).fill(5)),
  publicUrl: "http://orchestrator.test",
  vault: { keys: keyring([1, 2]), rawCardData: () => true }
})

describe("the worker's vault job", () => {
  it.effect("runs the vault's key rotation beside the core's and the sandbox's jobs, and reports cards per key version", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 29))
      const jobs = yield* Jobs
      const names = jobs.map((job) => job.name)
      expect(names).toContain("vault-key-rotation")
      expect(names).toContain("sandbox-notifications")
      expect(names).toContain("reconcile-payments")
      yield* (yield* CardVault).tokenize({ organizationId: "org_w", livemode: false }, {
        type: "card",
        card: { number: "4242424242424242", exp_month: 12, exp_year: 2034 }
      })
      // Wrapped under the newest version at once: nothing to re-wrap; the gauge says where the cards are.
      expect(yield* jobs.find((job) => job.name === "vault-key-rotation")!.run).toBe(0)
      expect((yield* Metric.value(Metric.tagged(vaultCards, "key_version", "2"))).value).toBe(1)
    }).pipe(Effect.provide(worker)))
})
