import { Duration, Effect } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { rememberConnectionType } from "../observability/ProviderMetrics.js"
import { ConnectionHealth } from "../providers/ConnectionHealth.js"
import { Connectors } from "../providers/Connectors.js"
import { providerText } from "../providers/FailureMessages.js"
import type { ConnectorError, PaymentConnector } from "../providers/PaymentConnector.js"
import { callProvider } from "../providers/ProviderCall.js"
import type { ProviderConnection } from "../providers/ProviderConnection.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { PaymentPolicy } from "./PaymentPolicy.js"
import { PaymentsRepository } from "./PaymentsRepository.js"

/**
 * How every use case talks to a PSP: one call under the policy's timeout, counted towards the
 * connection's health, and what the PSP said kept on the attempt for operators.
 */
export const makePaymentCalls = Effect.gen(function*() {
  const connectors = yield* Connectors
  const resolution = yield* ProviderResolution
  const health = yield* ConnectionHealth
  const repository = yield* PaymentsRepository

  const keepProviderMessage = (tenant: Tenant, attemptId: string, message: string | undefined) =>
    message === undefined || message === ""
      ? Effect.void
      : repository.recordProviderMessage(tenant, attemptId, providerText(message))

  const call = <A>(
    tenant: Tenant,
    provider: string | ProviderConnection,
    use: (connector: PaymentConnector) => Effect.Effect<A, ConnectorError>
  ) =>
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
    })

  return { call, keepProviderMessage }
})

export type PaymentCalls = Effect.Effect.Success<typeof makePaymentCalls>
