import { type ConnectorContext, ConnectorUnavailable } from "@orchestrator/core"
import { Effect, Redacted } from "effect"

/**
 * One of the connection's sealed credentials, unsealed for this call, or why the connector cannot
 * call its PSP (nothing is sent without it). `problem` is the PSP's own check of the value, e.g. a
 * live key on a test connection: the reason is ours, the value never appears in it.
 */
export const connectionCredential = (
  context: ConnectorContext,
  name: string,
  problem: (value: string) => string | undefined = () => undefined
): Effect.Effect<string, ConnectorUnavailable> =>
  Effect.flatMap(
    Effect.mapError(context.credentials, () => new ConnectorUnavailable({ reason: "the connection has no credentials" })),
    (credentials) => {
      const value = Redacted.value(credentials)[name]
      if (value === undefined || value === "") {
        return Effect.fail(new ConnectorUnavailable({ reason: `the connection has no credentials.${name}` }))
      }
      const wrong = problem(value)
      return wrong === undefined ? Effect.succeed(value) : Effect.fail(new ConnectorUnavailable({ reason: wrong }))
    }
  )
