import { Context, DateTime, Duration, Effect, Layer } from "effect"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { Tenant } from "../../domain/Tenant.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { EventLog } from "../events/EventLog.js"
import type { CallResult } from "./ProviderCall.js"
import { ProviderConnectionViews } from "./ProviderConnectionViews.js"

/** When a connection's circuit opens and how long it stays open, as data. */
export class ConnectionHealthPolicy extends Context.Reference<ConnectionHealthPolicy>()("core/ConnectionHealthPolicy", {
  defaultValue: () => ({
    /** Calls in a row that fail to reach the PSP (unreachable, no answer) before the circuit opens. */
    failureThreshold: 5,
    /** How long an open circuit keeps every call away before one trial call may go through. */
    coolDown: Duration.seconds(30),
    /** How long a trial call holds the circuit, so no second one goes through meanwhile. */
    trialLease: Duration.minutes(1)
  })
}) {}

/**
 * The circuit breaker of every connection, kept in the database so every process sees the same
 * state. Failures to reach the PSP count (connect errors, PSP 5xx, rejected credentials, no answer);
 * declines are answers and do not.
 */
export class ConnectionHealth extends Context.Tag("core/ConnectionHealth")<ConnectionHealth, {
  /** Records how a call ended; the call that opens the circuit also records `provider_connection.error`. */
  readonly observe: (tenant: Tenant, connection: ProviderConnection, result: CallResult<unknown>) => Effect.Effect<void>
  /**
   * Whether a call may go to `connection` now: always while its circuit is closed; while it is open,
   * once its cool-down is over, to one trial call at a time, whose outcome closes or reopens it.
   */
  readonly admit: (connection: ProviderConnection) => Effect.Effect<boolean>
}>() {
  static readonly layer = Layer.effect(
    ConnectionHealth,
    Effect.gen(function*() {
      const connections = yield* ProviderConnectionsRepository
      const transactions = yield* Transactions
      const events = yield* EventLog
      const views = yield* ProviderConnectionViews
      return {
        observe: (tenant, connection, result) =>
          Effect.gen(function*() {
            const now = yield* DateTime.now
            if (result._tag === "Answered") {
              // A healthy connection, as this request loaded it, has nothing to reset: no write on the
              // hot path. A failure recorded since by another request is reset by the next success.
              if (connection.status === "active" && connection.consecutive_failures === 0) return
              return yield* connections.recordSuccess(connection.id, now)
            }
            // A vaulted card that did not open never reached the PSP: nothing to say about its health.
            if (result._tag === "Unavailable" && result.cardUnusable === true) return
            const policy = yield* ConnectionHealthPolicy
            const reason = result._tag === "Unavailable" ? result.reason : "The provider did not answer in time."
            yield* transactions.run(Effect.gen(function*() {
              const recorded = yield* connections.recordFailure(connection.id, {
                reason,
                threshold: policy.failureThreshold,
                retryAt: DateTime.add(now, { millis: Duration.toMillis(policy.coolDown) }),
                now
              })
              if (recorded.opened) {
                yield* events.record(tenant, { type: "provider_connection.error", object: views.view(recorded.connection) })
              }
            }))
          }),
        admit: (connection) =>
          Effect.gen(function*() {
            if (connection.status === "active") return true
            if (connection.status !== "error") return false
            const policy = yield* ConnectionHealthPolicy
            const now = yield* DateTime.now
            return yield* connections.claimTrial(connection.id, now, DateTime.add(now, { millis: Duration.toMillis(policy.trialLease) }))
          })
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(EventLog.layer, ProviderConnectionViews.layer)))
}
