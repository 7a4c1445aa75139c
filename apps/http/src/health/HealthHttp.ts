import { HttpApiBuilder } from "@effect/platform"
import { Api, NotReady } from "@orchestrator/api"
import { Readiness } from "@orchestrator/core"
import { Context, Effect, Option } from "effect"

/** Whether probes are traced (`ORCHESTRATOR_TRACE_PROBES`): not by default. */
export class TraceProbes extends Context.Reference<TraceProbes>()("http/TraceProbes", { defaultValue: () => false }) {}

/** The paths load balancers and orchestrators poll, every few seconds. */
export const isProbe = (url: string) => {
  const path = url.split("?")[0]
  return path === "/healthz" || path === "/readyz"
}

export const HealthHttpLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    const traced = yield* TraceProbes
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        Effect.flatMap(
          readiness.problem,
          Option.match({
            onNone: () => Effect.succeed({ status: "ok" as const }),
            onSome: (reason) => Effect.fail(new NotReady({ status: "unavailable", reason }))
          })
        ).pipe(Effect.withTracerEnabled(traced)))
  }))
