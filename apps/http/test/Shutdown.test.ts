import { describe, expect, it } from "@effect/vitest"
import { type Payment, PaymentsRepository } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import * as net from "node:net"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { merchant, raw, serverLayer } from "./support/TestServer.js"

/** True when nothing accepts a new TCP connection on `port` any more. */
const refusesConnections = (port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(false))
    })
    socket.once("error", () => resume(Effect.succeed(true)))
  })

describe("shutdown", () => {
  it.live("lets a running payment request finish before the server stops", () =>
    Effect.gen(function*() {
      const reached = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const events: Array<string> = []
      // Holds the request inside its first transaction until the test opens the gate.
      const held = <A>(write: Effect.Effect<A>) => Deferred.succeed(reached, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(write))
      const settled = (payment: Payment) => payment.status === "succeeded" ? Effect.sync(() => events.push("settled")) : Effect.void
      // A payment is created with its events in one write, and settled by a move under the lock or
      // by a compare-and-set.
      const Held = Layer.effect(
        PaymentsRepository,
        Effect.map(PaymentsRepository, (real) => ({
          ...real,
          update: (tenant, payment) => Effect.tap(real.update(tenant, payment), () => settled(payment)),
          insertWithEvents: (tenant, payment, written, claim, cardRead) => held(real.insertWithEvents(tenant, payment, written, claim, cardRead)),
          updateIfUnchanged: (tenant, seen, payment, written, completion) =>
            Effect.tap(real.updateIfUnchanged(tenant, seen, payment, written, completion), (done) => done ? settled(payment) : Effect.void)
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
      // The server is draining: it refuses new connections while the held request is still running.
      const port = Number(new URL(baseUrl).port)
      while (!(yield* refusesConnections(port))) yield* Effect.yieldNow()
      events.push("draining")
      yield* Deferred.succeed(gate, undefined)

      const response = yield* Fiber.join(request)
      yield* Fiber.join(stopping)
      expect([response.status, response.json.status]).toEqual([201, "succeeded"])
      // The server was already draining when the payment settled and was answered; then it stopped.
      expect(events).toEqual(["draining", "settled", "stopped"])
    }), 60_000)
})
