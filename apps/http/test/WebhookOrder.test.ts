import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { json, newKey, paymentWith } from "./support/Fixtures.js"
import { startReceiver } from "./support/Receiver.js"
import { deliverWebhooks, merchant, raw, runJobs, serverLayer } from "./support/TestServer.js"

interface Arrival {
  readonly deliveryId: string
  readonly type: string
  readonly objectId: string
  readonly eventId: string
}

/**
 * A merchant's receiver as the issue describes it: it applies each event's status to its own copy of
 * the payment, then answers. Applying takes a while, longer for a payment's first news (a new row)
 * than for later ones, so events sent side by side would be applied out of order.
 */
const applyingReceiver = Effect.acquireRelease(
  Effect.async<{ url: string; arrivals: Array<Arrival>; statuses: Map<string, string>; server: http.Server }>((resume) => {
    const arrivals: Array<Arrival> = []
    const statuses = new Map<string, string>()
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        const object = event.data.object
        arrivals.push({
          deliveryId: String(request.headers["service-delivery-id"]),
          type: event.type,
          objectId: object.id,
          eventId: event.id
        })
        const applying = event.type === "payment.created" ? 60 : event.type === "payment.processing" ? 30 : 0
        setTimeout(() => {
          statuses.set(object.id, object.status)
          response.writeHead(200).end("ok")
        }, applying)
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        arrivals,
        statuses,
        server
      })))
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

for (const database of testDatabases()) {
  layer(serverLayer(database.layer), { excludeTestServices: true, timeout: "120 seconds" })(
    `webhook order per object on ${database.name}`,
    (it) => {
      it.scoped("a receiver gets each payment's events in order, several payments at once, from two workers", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const receiver = yield* applyingReceiver
          const call = (path: string, body?: unknown) =>
            raw(`${baseUrl}${path}`, {
              method: body === undefined ? "GET" : "POST",
              headers: json(secret, body === undefined ? undefined : newKey()),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          expect((yield* call("/v1/webhooks/endpoints", { url: receiver.url })).status).toBe(201)

          const payments = yield* Effect.all(
            Array.from({ length: 6 }, () => call("/v1/payments", paymentWith("tok_visa"))),
            { concurrency: "unbounded" }
          )
          const ids = payments.map((created) => {
            expect([created.status, created.json.status]).toEqual([201, "succeeded"])
            return created.json.id as string
          })

          // Every event of these payments, oldest first, as the events list orders them.
          const listed = (yield* call("/v1/events?limit=100")).json.data as Array<any>
          const eventsOf = (id: string) => listed.filter((event) => event.data.object.id === id).reverse().map((event) => event.id as string)
          const expected = ids.reduce((sum, id) => sum + eventsOf(id).length, 0)
          expect(eventsOf(ids[0]!).length).toBeGreaterThanOrEqual(2)

          // Two workers deliver at once, pass after pass, until every delivery has been attempted.
          yield* runJobs("dispatch-events")
          for (let pass = 0; pass < 20 && new Set(receiver.arrivals.map((each) => each.deliveryId)).size < expected; pass++) {
            yield* Effect.all([runJobs("deliver-webhooks"), runJobs("deliver-webhooks")], { concurrency: 2 })
          }

          const firstAttempts = receiver.arrivals.filter((arrival, index) =>
            receiver.arrivals.findIndex((other) => other.deliveryId === arrival.deliveryId) === index
          )
          expect(firstAttempts).toHaveLength(expected)
          for (const id of ids) {
            expect(firstAttempts.filter((arrival) => arrival.objectId === id).map((arrival) => arrival.eventId))
              .toEqual(eventsOf(id))
            // The receiver, applying each event's status, ends where the payment is.
            expect(receiver.statuses.get(id)).toBe("succeeded")
          }
        }))

      it.scoped("a failed first attempt waits for its retry without holding back the payment's later events", () =>
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const receiver = yield* startReceiver
          receiver.answerWith(503)
          const call = (path: string, body?: unknown) =>
            raw(`${baseUrl}${path}`, {
              method: body === undefined ? "GET" : "POST",
              headers: json(secret, body === undefined ? undefined : newKey()),
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
          expect((yield* call("/v1/webhooks/endpoints", { url: receiver.url })).status).toBe(201)
          const paid = (yield* call("/v1/payments", paymentWith("tok_visa"))).json
          const events = ((yield* call("/v1/events")).json.data as Array<any>).reverse().map((event) => event.id)

          // One pass: each first attempt fails and is scheduled again, and the next event goes out anyway.
          yield* deliverWebhooks
          expect(receiver.received.map((each) => each.headers["service-event-id"])).toEqual(events)
          const deliveries = (yield* call("/v1/webhooks/deliveries")).json.data as Array<any>
          expect(deliveries.map((each: any) => [each.status, each.attempt_count]))
            .toEqual(events.map(() => ["pending", 1]))
          expect(paid.status).toBe("succeeded")
        }))
    }
  )
}
