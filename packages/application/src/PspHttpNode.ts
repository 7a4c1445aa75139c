import { FetchHttpClient, HttpClient } from "@effect/platform"
import { PspHttp } from "@orchestrator/connectors/transport/PspHttp"
import { Effect, Layer } from "effect"
import { Agent, fetch as undiciFetch } from "undici"

/**
 * How connectors reach PSPs on Node: fetch over an undici agent per connect timeout, so a PSP that
 * does not accept the connection in time fails with `UND_ERR_CONNECT_TIMEOUT` (nothing was sent)
 * instead of running into the read timeout (outcome unknown). Agents keep their connections alive
 * between calls and are closed with the application.
 */
export const PspHttpNode = Layer.scoped(
  PspHttp,
  Effect.gen(function*() {
    const agents = new Map<number, Agent>()
    yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all([...agents.values()].map((agent) => agent.close()))))
    const base = yield* Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
    const agentFor = (connectTimeoutMs: number) => {
      const existing = agents.get(connectTimeoutMs)
      if (existing !== undefined) return existing
      const agent = new Agent({ connect: { timeout: connectTimeoutMs } })
      agents.set(connectTimeoutMs, agent)
      return agent
    }
    return PspHttp.of({
      client: (connectTimeoutMs) => {
        const dispatcher = agentFor(connectTimeoutMs)
        const fetchVia = ((input: any, init: any) => undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch
        return HttpClient.transform(base, (response) => Effect.provideService(response, FetchHttpClient.Fetch, fetchVia))
      }
    })
  })
)
