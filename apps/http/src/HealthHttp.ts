import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { NotReady } from "@orchestrator/api/HealthApi"
import { readinessProblem } from "@orchestrator/sql/Readiness"
import { Effect, Option } from "effect"

export const HealthHttpLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  handlers
    .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
    .handle("readyz", () =>
      Effect.flatMap(readinessProblem, Option.match({
        onNone: () => Effect.succeed({ status: "ok" as const }),
        onSome: (reason) => Effect.fail(new NotReady({ status: "unavailable", reason }))
      }))))
