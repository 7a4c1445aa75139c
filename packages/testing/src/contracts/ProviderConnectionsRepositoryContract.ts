import { expect } from "@effect/vitest"
import { ProviderConnection, ProviderConnectionsRepository } from "@orchestrator/core"
import { DateTime, Effect, Option } from "effect"
import { testConnection } from "../Connections.js"
import { at, id, newTenant, type StorageContractTest } from "./StorageContractFixtures.js"

/** A provider connection store: sealed secrets and the connection's circuit. */
export const providerConnectionsRepositoryContract = (it: StorageContractTest) => {
  it.effect("keeps a connection's secrets sealed, per connection and kind", () =>
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const tenant = yield* newTenant
      const connection = testConnection({ id: id("pcn"), name: "stripe_eu", type: "stripe", created_at: at(0), updated_at: at(0) })
      yield* connections.insert(tenant.organizationId, connection)
      expect(Option.isNone(yield* connections.findSealedSecret(connection.id, "credentials"))).toBe(true)
      yield* connections.saveSealedSecret(connection.id, "credentials", "v1.sealed-credentials")
      yield* connections.saveSealedSecret(connection.id, "webhook_secret", "v1.sealed-secret")
      expect(yield* connections.findSealedSecret(connection.id, "credentials")).toEqual(Option.some("v1.sealed-credentials"))
      expect(yield* connections.findSealedSecret(connection.id, "webhook_secret")).toEqual(Option.some("v1.sealed-secret"))
      yield* connections.saveSealedSecret(connection.id, "webhook_secret", null)
      expect(Option.isNone(yield* connections.findSealedSecret(connection.id, "webhook_secret"))).toBe(true)
    }))

  it.effect("keeps a connection's circuit: it opens after enough failures in a row, lets one trial through, and closes on success", () =>
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const tenant = yield* newTenant
      const connection = testConnection({ id: id("pcn"), name: "flaky", created_at: at(0), updated_at: at(0) })
      yield* connections.insert(tenant.organizationId, connection)
      const fail = (millis: number) =>
        connections.recordFailure(connection.id, { reason: "refused", threshold: 3, retryAt: at(millis + 30_000), now: at(millis) })
      const first = yield* fail(1)
      expect(first.opened).toBe(false)
      // The connection says what went wrong and when, while it is the latest news.
      expect(first.connection.last_error).toBe("refused")
      expect(DateTime.toEpochMillis(first.connection.last_error_at!)).toBe(DateTime.toEpochMillis(at(1)))
      // A success in between starts the count again, and the connection is healthy: no error to show.
      yield* connections.recordSuccess(connection.id, at(2))
      expect(Option.getOrThrow(yield* connections.find(tenant, connection.id))).toMatchObject({ last_error: null, last_error_at: null })
      expect((yield* fail(3)).opened).toBe(false)
      expect((yield* fail(4)).opened).toBe(false)
      const opened = yield* fail(5)
      expect(opened.opened).toBe(true)
      expect(opened.connection).toMatchObject({ status: "error", last_error: "refused", consecutive_failures: 3 })
      expect(DateTime.toEpochMillis(opened.connection.last_error_at!)).toBe(DateTime.toEpochMillis(at(5)))
      expect(DateTime.toEpochMillis(opened.connection.circuit_retry_at!)).toBe(DateTime.toEpochMillis(at(30_005)))
      // Not before the cool-down; then one trial at a time.
      expect(yield* connections.claimTrial(connection.id, at(30_000), at(90_000))).toBe(false)
      expect(yield* connections.claimTrial(connection.id, at(30_005), at(90_005))).toBe(true)
      expect(yield* connections.claimTrial(connection.id, at(30_006), at(90_006))).toBe(false)
      // The trial fails: open again, for another cool-down, and no second "opened".
      expect((yield* fail(31_000)).opened).toBe(false)
      expect(yield* connections.claimTrial(connection.id, at(40_000), at(100_000))).toBe(false)
      expect(yield* connections.claimTrial(connection.id, at(61_000), at(121_000))).toBe(true)
      yield* connections.recordSuccess(connection.id, at(62_000))
      const closed = Option.getOrThrow(yield* connections.find(tenant, connection.id))
      expect(closed).toMatchObject({ status: "active", last_error: null, last_error_at: null, consecutive_failures: 0, circuit_retry_at: null })
      // A disabled connection stays disabled, however its calls end.
      yield* connections.update(tenant.organizationId, new ProviderConnection({ ...closed, status: "disabled" }))
      for (let i = 0; i < 4; i++) yield* fail(70_000 + i)
      expect(Option.getOrThrow(yield* connections.find(tenant, connection.id)).status).toBe("disabled")
    }))
}
