import {
  CreatePayment,
  CreateRefund,
  CreateWebhookEndpoint,
  Organizations,
  Payments,
  ProviderWebhooks,
  Refunds,
  type Tenant,
  WebhookEndpoints
} from "@orchestrator/core"
import { SIGNATURE_HEADER, verifyWebhook, type WebhookEvent } from "@orchestrator/webhook-verify"
import { Effect, ManagedRuntime, Schema } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { shopCore } from "./ShopCore.js"

/** A shop's answer: a status and a JSON body. */
interface Answer {
  readonly status: number
  readonly body: unknown
}

const readBody = (request: IncomingMessage) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    request.on("error", reject)
  })

const headersOf = (request: IncomingMessage): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : value]))

/** The core's typed failures become 4xx with their tag; anything else is the shop's 500. */
const answerOf = <A, E extends { readonly _tag: string }, R>(status: number, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.map((body): Answer => ({ status, body })),
    Effect.catchAll((error) => Effect.succeed<Answer>({ status: 422, body: { error: error._tag } }))
  )

/**
 * A shop's own HTTP server, on `node:http` with no framework, that embeds the core: it takes orders
 * (a sandbox card payment), refunds them, takes the PSP's webhooks on its own route, and receives
 * the core's signed events on another, as a merchant's backend would.
 */
export const startShop = async (options: {
  readonly port: number
  /** The address to listen on: 127.0.0.1 (this machine only) unless given. */
  readonly host?: string
  readonly dataDir?: string
  /** Called with each event the core delivers, once verified. */
  readonly onEvent?: (event: WebhookEvent) => void
}) => {
  const received: Array<WebhookEvent> = []
  const listeners = new Set<() => void>()
  /** Resolves once an event of `type` about the object `objectId` has arrived (at once if it has). */
  const arrival = (objectId: string, type: string) =>
    new Promise<WebhookEvent>((resolve) => {
      const check = () => {
        const event = received.find((each) => each.data.object.id === objectId && each.type === type)
        if (event === undefined) return
        listeners.delete(check)
        resolve(event)
      }
      listeners.add(check)
      check()
    })
  // The server listens first (the core needs its address), and says so while the core starts.
  let handle: ((request: IncomingMessage, body: Uint8Array) => Promise<Answer>) | undefined = undefined
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (handle === undefined) {
      response.writeHead(503, { "content-type": "application/json", "retry-after": "1" })
        .end(JSON.stringify({ error: "starting", message: "The shop is starting; try again in a second." }))
      return
    }
    const ready = handle
    readBody(request)
      .then((body) => ready(request, body))
      .catch((error: unknown) => ({ status: 500, body: { error: String(error) } }))
      .then((answer) => response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body)))
  })
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve))
  // Listening on every interface, the shop still reaches itself (its event route) on this machine.
  const ownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
  const baseUrl = `http://${ownHost}:${(server.address() as AddressInfo).port}`

  const runtime = ManagedRuntime.make(shopCore({
    baseUrl,
    masterSecret: crypto.getRandomValues(new Uint8Array(32)),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir })
  }))

  // The shop's merchant account: an organization (with its sandbox connections) and an endpoint
  // on this server for its events, whose secret verifies what arrives.
  const { tenant, secret } = await runtime.runPromise(Effect.gen(function*() {
    const organization = yield* (yield* Organizations).create("Embedded shop")
    const tenant: Tenant = { organizationId: organization.id, livemode: false }
    const input = yield* Schema.decodeUnknown(CreateWebhookEndpoint)({ url: `${baseUrl}/events` })
    const endpoint = yield* (yield* WebhookEndpoints).create(tenant, input)
    return { tenant, secret: endpoint.secret ?? "" }
  }))

  const routes: ReadonlyArray<readonly [string, RegExp, (match: RegExpMatchArray, request: IncomingMessage, body: Uint8Array) => Promise<Answer>]> = [
    ["POST", /^\/orders$/, (_, __, body) => {
      const { amount, currency, token } = JSON.parse(new TextDecoder().decode(body))
      return runtime.runPromise(answerOf(
        201,
        Effect.flatMap(
          Schema.decodeUnknown(CreatePayment)({ amount, currency, payment_method: { type: "card", token } }),
          (input) => Effect.flatMap(Payments, (payments) => payments.create(tenant, input))
        )
      ))
    }],
    ["POST", /^\/orders\/([^/]+)\/refund$/, ([, id]) =>
      runtime.runPromise(answerOf(
        201,
        Effect.flatMap(
          Schema.decodeUnknown(CreateRefund)({}),
          (input) => Effect.flatMap(Refunds, (refunds) => refunds.create(tenant, id!, input))
        )
      ))],
    [
      "POST",
      /^\/psp-webhooks\/([^/]+)$/,
      ([, connectionId], request, body) =>
        runtime.runPromise(
          answerOf(200, Effect.flatMap(ProviderWebhooks, (webhooks) => webhooks.receive(connectionId!, { body, headers: headersOf(request) })))
        )
    ],
    ["POST", /^\/events$/, async (_, request, body) => {
      const event = verifyWebhook(body, headersOf(request)[SIGNATURE_HEADER], secret)
      received.push(event)
      options.onEvent?.(event)
      for (const check of [...listeners]) check()
      return { status: 200, body: {} }
    }]
  ]
  handle = async (request, body) => {
    for (const [method, path, route] of routes) {
      const match = request.method === method ? request.url?.match(path) : null
      if (match) return route(match, request, body)
    }
    return { status: 404, body: { error: "not_found" } }
  }

  return {
    baseUrl,
    /** The events the core delivered to this shop, verified, in the order they came. */
    received,
    arrival,
    close: async () => {
      // The jobs first (they post to this server), then the server.
      await runtime.dispose()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
