import { describe, expect, it } from "@effect/vitest"
import { Organizations, PublicUrls } from "@orchestrator/core"
import { Database } from "@orchestrator/sql"
import { durableTestDatabases } from "@orchestrator/testing"
import { Effect, Layer } from "effect"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, raw, serverLayer } from "./support/TestServer.js"

describe("restart", () => {
  for (const database of durableTestDatabases()) {
    it.live(
      `stops and starts on the same data: payments, refunds, idempotency keys and unsent webhooks survive (${database.name})`,
      () =>
        Effect.gen(function*() {
          const config = yield* database.create
          const server = serverLayer(Database.layer(config))
          const key = newKey()
          const body = JSON.stringify(paymentWith("tok_visa", { amount: 2500 }))

          const receiver = yield* startReceiver

          // First life: a payment, a refund, the saved response of the key, and webhooks that were
          // never sent: this process stops before its worker gets to them.
          const first = yield* Effect.scoped(
            Effect.gen(function*() {
              const organizations = yield* Organizations
              const organization = yield* organizations.create("Restart Ltd")
              const { secret } = yield* organizations.createKey(organization.id, false)
              const baseUrl = (yield* PublicUrls).base
              const endpoint = yield* raw(`${baseUrl}/v1/webhooks/endpoints`, {
                method: "POST",
                headers: json(secret),
                body: JSON.stringify({ url: receiver.url })
              })
              expect(endpoint.status).toBe(201)
              const payment = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, key), body })
              const refund = yield* raw(`${baseUrl}/v1/payments/${payment.json.id}/refund`, {
                method: "POST",
                headers: json(secret, newKey()),
                body: JSON.stringify({ amount: 1000 })
              })
              expect([payment.status, refund.status]).toEqual([201, 201])
              return { secret, payment, refund }
            }).pipe(Effect.provide(Layer.fresh(server)))
          )

          // Second life, a new process on the same data.
          yield* Effect.scoped(
            Effect.gen(function*() {
              const baseUrl = (yield* PublicUrls).base
              const headers = json(first.secret)
              const payment = yield* raw(`${baseUrl}/v1/payments/${first.payment.json.id}`, { headers })
              expect(payment.json).toEqual({ ...first.payment.json, amount_refunded: 1000, updated_at: payment.json.updated_at })
              const refund = yield* raw(`${baseUrl}/v1/refunds/${first.refund.json.id}`, { headers })
              expect(refund.json).toEqual(first.refund.json)
              const replay = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(first.secret, key), body })
              expect([replay.status, replay.headers.get("idempotent-replayed"), replay.text]).toEqual([
                201,
                "true",
                first.payment.text
              ])
              // The webhooks the first life never sent go out now, each once.
              expect(receiver.received).toEqual([])
              yield* deliverWebhooks
              const types = receiver.received.map((request) => JSON.parse(request.body.toString()).type)
              expect(types.sort()).toEqual(
                ["payment.created", "payment.processing", "payment.succeeded", "refund.pending", "refund.succeeded"].sort()
              )
              yield* deliverWebhooks
              expect(receiver.received).toHaveLength(5)
            }).pipe(Effect.provide(Layer.fresh(server)))
          )
        }).pipe(Effect.scoped),
      120_000
    )
  }
})
