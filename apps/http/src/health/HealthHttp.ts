import { HttpApiBuilder } from "@effect/platform"
import { Api, NotReady } from "@orchestrator/api"
import { Readiness } from "@orchestrator/core"
import { Effect, Option } from "effect"

export const HealthHttpLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.map(Readiness, (readiness) =>
    handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        Effect.flatMap(
          readiness.problem,
          Option.match({
            onNone: () => Effect.succeed({ status: "ok" as const }),
            onSome: (reason) => Effect.fail(new NotReady({ status: "unavailable", reason }))
          })
        ))))
