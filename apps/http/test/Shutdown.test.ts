import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { testDatabases } from "@orchestrator/testing/TestDatabases"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

describe("shutdown", () => {
  it.live("lets a running payment request finish before the server stops", () =>
    Effect.gen(function*() {
      const reached = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const events: Array<string> = []
      // Holds the request inside its first transaction until the test opens the gate.
      const Held = Layer.effect(
        PaymentsRepository,
        Effect.map(PaymentsRepository, (real) => ({
          ...real,
          insert: (tenant, payment) =>
            Deferred.succeed(reached, undefined).pipe(
              Effect.zipRight(Deferred.await(gate)),
              Effect.zipRight(real.insert(tenant, payment))
            ),
          update: (tenant, payment) =>
            Effect.tap(real.update(tenant, payment), () =>
              payment.status === "succeeded" ? Effect.sync(() => events.push("settled")) : Effect.void)
        }))
      )
      const scope = yield* Scope.make()
      const server = yield* Layer.buildWithScope(serverLayer(testDatabases()[0]!.layer, { payments: Held }), scope)
      const { baseUrl, secret } = yield* Effect.provide(merchant(), server)

      const request = yield* Effect.fork(
        raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: { ...json(secret, newKey()), connection: "close" },
          body: JSON.stringify(paymentWith("tok_visa"))
        })
      )
      yield* Deferred.await(reached)
      const stopping = yield* Effect.fork(
        Scope.close(scope, Exit.void).pipe(Effect.tap(() => Effect.sync(() => events.push("stopped"))))
      )
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)

      const response = yield* Fiber.join(request)
      yield* Fiber.join(stopping)
      expect([response.status, response.json.status]).toEqual([201, "succeeded"])
      // The payment settled (and was answered) before the server, then the database, stopped.
      expect(events).toEqual(["settled", "stopped"])
    }), 60_000)
})
