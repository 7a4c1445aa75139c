import { Context, Duration, Effect, Layer } from "effect"
import { PaymentPolicy } from "../../domain/payments/PaymentPolicy.js"
import type { ConnectorError } from "../../domain/providers/ConnectorOutcomes.js"
import { providerText } from "../../domain/providers/FailureMessages.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { Tenant } from "../../domain/Tenant.js"
import type { PaymentConnector } from "../../ports/PaymentConnector.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { ConnectionHealth } from "../connections/ConnectionHealth.js"
import { Connectors } from "../connections/Connectors.js"
import { callProvider, type CallResult } from "../connections/ProviderCall.js"
import { rememberConnectionType } from "../observability/ProviderMetrics.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"

/**
 * How payments and refunds talk to a PSP: one call under the policy's deadline, counted towards the
 * connection's health, and what the PSP said kept on the attempt for operators.
 */
export class PaymentCalls extends Context.Tag("core/PaymentCalls")<PaymentCalls, {
  /** One call to the PSP of a connection (by name, or the connection itself). */
  readonly call: <A>(
    tenant: Tenant,
    provider: string | ProviderConnection,
    use: (connector: PaymentConnector) => Effect.Effect<A, ConnectorError>
  ) => Effect.Effect<{ readonly result: CallResult<A>; readonly latencyMs: number }>
  /** Keeps what the PSP said about an attempt (its first KiB) on the attempt's record: for operators, never shown by the API. */
  readonly keepProviderMessage: (tenant: Tenant, attemptId: string, message: string | undefined) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    PaymentCalls,
    Effect.gen(function*() {
      const connectors = yield* Connectors
      const resolution = yield* ProviderResolution
      const health = yield* ConnectionHealth
      const repository = yield* PaymentsRepository
      return PaymentCalls.of({
        call: (tenant, provider, use) =>
          Effect.gen(function*() {
            const policy = yield* PaymentPolicy
            const connection = typeof provider === "string" ? yield* resolution.byName(tenant, provider) : provider
            const connector = yield* Effect.orDie(connectors.forConnection(connection))
            const deadline = connector.deadlineMs === undefined
              ? policy.callTimeout
              : Duration.min(policy.callTimeout, Duration.millis(connector.deadlineMs))
            rememberConnectionType(tenant, connection)
            const outcome = yield* callProvider(use(connector), deadline)
            yield* health.observe(tenant, connection, outcome.result)
            return outcome
          }),
        keepProviderMessage: (tenant, attemptId, message) =>
          message === undefined || message === ""
            ? Effect.void
            : repository.recordProviderMessage(tenant, attemptId, providerText(message))
      })
    })
  ).pipe(Layer.provide(Layer.mergeAll(Connectors.layer, ConnectionHealth.layer, ProviderResolution.layer)))
}
