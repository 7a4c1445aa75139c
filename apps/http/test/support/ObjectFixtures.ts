import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { newKey } from "./Fixtures.js"
import type { SecretScan } from "./SecretScan.js"
import { raw, type RawResponse, runJobs } from "./TestServer.js"

/** The kinds of object a path parameter can name. */
export type ObjectKind =
  | "payment"
  | "refund"
  | "dispute"
  | "event"
  | "webhook_endpoint"
  | "webhook_delivery"
  | "provider_connection"
  | "routing_rule"
  | "customer"
  | "plan"
  | "subscription"
  | "invoice"
  | "test_clock"
  | "checkout_session"
  | "payment_method"
  | "file"

/**
 * The kind of object the path parameter `name` of `path` names, from the collection before it:
 * `/v1/payments/{id}/capture` names a payment. Undefined for a collection nobody mapped yet, which
 * the suites treat as a failure, so a new endpoint cannot go untested.
 */
export const objectKindOf = (path: string, name: string): ObjectKind | undefined => {
  const segments = path.split("/")
  const collection = segments[segments.indexOf(`{${name}}`) - 1]
  switch (collection) {
    case "payments":
      return "payment"
    case "refunds":
      return "refund"
    case "disputes":
      return "dispute"
    case "events":
      return "event"
    case "endpoints":
      return "webhook_endpoint"
    case "deliveries":
      return "webhook_delivery"
    case "provider-connections":
    case "provider-webhooks":
      return "provider_connection"
    case "routing-rules":
      return "routing_rule"
    case "customers":
      return "customer"
    case "plans":
      return "plan"
    case "subscriptions":
      return "subscription"
    case "invoices":
      return "invoice"
    case "test_clocks":
      return "test_clock"
    case "sessions":
      return "checkout_session"
    case "payment_methods":
      return "payment_method"
    case "files":
      return "file"
    default:
      return undefined
  }
}

/** A value nobody could mistake for anything but the secret it is, so a scan finds every copy. */
export const recognisable = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`

/** Sends raw requests with one key and remembers every answer for the secret scan. */
export const caller = (baseUrl: string, secret: string, scan: SecretScan) =>
(
  path: string,
  init: { readonly method?: string; readonly body?: unknown; readonly form?: FormData; readonly idempotencyKey?: string } = {}
): Effect.Effect<RawResponse> => {
  const method = init.method ?? (init.body === undefined && init.form === undefined ? "GET" : "POST")
  return raw(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      // A form's type, with its boundary, is written by fetch.
      ...(init.form === undefined ? { "content-type": "application/json" } : {}),
      ...(method === "GET" || method === "DELETE" ? {} : { "idempotency-key": init.idempotencyKey ?? newKey() })
    },
    ...(init.form !== undefined ? { body: init.form } : init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  }).pipe(Effect.tap((response) =>
    Effect.sync(() => {
      scan.saw(`${method} ${path} → ${response.status}`, response.text)
      scan.saw(`${method} ${path} → ${response.status} (headers)`, JSON.stringify([...response.headers]))
    })
  ))
}

export type Caller = ReturnType<typeof caller>

export interface MerchantObjects {
  /** Ids by kind; the first of each is the main one, the rest other states of it. */
  readonly ids: { readonly [kind in ObjectKind]: ReadonlyArray<string> }
  readonly connectionName: string
  /** The PSP webhook secret of the connection, to sign PSP webhooks for it. */
  readonly pspWebhookSecret: string
}

const expectStatus = (response: RawResponse, status: number, what: string) =>
  response.status === status
    ? Effect.succeed(response.json)
    : Effect.dieMessage(`creating ${what}: ${response.status} ${response.text.slice(0, 300)}`)

/**
 * One of every kind of object for the merchant behind `call`: a provider connection (with
 * recognisable credentials), a routing rule, a webhook endpoint, payments that succeeded, wait for
 * capture, wait for 3D Secure and failed, a refund, a dispute, and the events and deliveries they made.
 * Every secret set or received is registered with `scan`.
 */
export const createObjects = (call: Caller, scan: SecretScan) =>
  Effect.gen(function*() {
    const connectionName = `fixture_${randomBytes(4).toString("hex")}`
    const credential = recognisable("cred_fixture_")
    const pspWebhookSecret = recognisable("pspwh_fixture_")
    scan.secret("psp_credential", credential)
    scan.secret("psp_webhook_secret", pspWebhookSecret)
    const connection = yield* expectStatus(
      yield* call("/v1/provider-connections", {
        body: { name: connectionName, type: "sandbox", credentials: { api_key: credential }, webhook_secret: pspWebhookSecret }
      }),
      201,
      "a provider connection"
    )
    const rule = yield* expectStatus(
      yield* call("/v1/routing-rules", {
        body: { priority: 10, conditions: { currency: ["EUR"], amount: { gte: 1, lte: 5000 } }, action: { provider: connectionName } }
      }),
      201,
      "a routing rule"
    )
    // Nothing listens there: deliveries stay pending, which is all the suites need.
    const endpoint = yield* expectStatus(
      yield* call("/v1/webhooks/endpoints", { body: { url: "http://127.0.0.1:9/hooks", description: "fixture" } }),
      201,
      "a webhook endpoint"
    )
    scan.secret("webhook_secret", endpoint.secret)
    const pay = (token: string, extra: object = {}) =>
      call("/v1/payments", {
        body: { amount: 2500, currency: "EUR", payment_method: { type: "card", token }, ...extra }
      })
    const succeeded = yield* expectStatus(yield* pay("tok_visa"), 201, "a payment")
    const authorized = yield* expectStatus(yield* pay("tok_visa", { capture: false }), 201, "an authorization")
    const threeDs = yield* expectStatus(
      yield* pay("tok_threeDSecureRequired", { return_url: "https://shop.example/thanks" }),
      201,
      "a 3DS payment"
    )
    const declined = yield* pay("tok_chargeDeclined")
    const refunded = yield* expectStatus(yield* pay("tok_visa"), 201, "a payment to refund")
    const refund = yield* expectStatus(
      yield* call(`/v1/payments/${refunded.id}/refund`, { body: { amount: 500 } }),
      201,
      "a refund"
    )
    // A payment its customer disputes: the sandbox's dispute webhook, received and applied as the worker does.
    const disputedPayment = yield* expectStatus(yield* pay("tok_createDispute"), 201, "a disputed payment")
    yield* runJobs("sandbox-notifications", "apply-provider-events")
    const disputes = yield* expectStatus(yield* call(`/v1/disputes?payment_id=${disputedPayment.id}`), 200, "the disputes")
    if (disputes.data.length === 0) return yield* Effect.dieMessage("no dispute was opened")
    const clock = yield* expectStatus(
      yield* call("/v1/test_helpers/test_clocks", { body: { frozen_time: "2030-01-31T12:00:00.000Z" } }),
      201,
      "a test clock"
    )
    const customer = yield* expectStatus(
      yield* call("/v1/customers", { body: { email: "fixture@example.com", test_clock: clock.id } }),
      201,
      "a customer"
    )
    const plan = yield* expectStatus(
      yield* call("/v1/plans", { body: { amount: 1500, currency: "EUR", interval: "month" } }),
      201,
      "a plan"
    )
    const subscription = yield* expectStatus(
      yield* call("/v1/subscriptions", { body: { customer: customer.id, plan: plan.id, payment_method: "tok_visa" } }),
      201,
      "a subscription"
    )
    const checkout = (token: string | null) =>
      Effect.gen(function*() {
        const session = yield* expectStatus(
          yield* call("/v1/checkout/sessions", {
            body: { amount: 2500, currency: "EUR", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" }
          }),
          201,
          "a checkout session"
        )
        scan.secret("client_secret", session.client_secret)
        if (token !== null) {
          yield* call(`/v1/checkout/sessions/${session.id}/confirm`, { body: { payment_method: { type: "card", token } } })
        }
        return session.id as string
      })
    // The suites' servers let every organization send raw card numbers (`rawCardData`).
    const card = yield* expectStatus(
      yield* call("/v1/payment_methods", { body: { type: "card", card: { number: "4242424242424242", exp_month: 12, exp_year: 2040 } } }),
      201,
      "a vaulted card"
    )
    const form = new FormData()
    form.append("purpose", "dispute_evidence")
    form.append("file", new Blob(["%PDF-1.4\n%%EOF\n"], { type: "application/pdf" }), "fixture.pdf")
    const file = yield* expectStatus(yield* call("/v1/files", { form }), 201, "a file")
    const sessions = [yield* checkout(null), yield* checkout("tok_chargeDeclined"), yield* checkout("tok_visa")]
    yield* runJobs("dispatch-events")
    const events = yield* expectStatus(yield* call("/v1/events?limit=100"), 200, "the events")
    const deliveries = yield* expectStatus(yield* call("/v1/webhooks/deliveries?limit=100"), 200, "the deliveries")
    if (deliveries.data.length === 0) return yield* Effect.dieMessage("no delivery was made")
    const ids: MerchantObjects["ids"] = {
      payment: [succeeded.id, authorized.id, threeDs.id, declined.json.error.payment.id, refunded.id],
      refund: [refund.id],
      dispute: [disputes.data[0].id],
      event: events.data.map((event: { id: string }) => event.id),
      webhook_endpoint: [endpoint.id],
      webhook_delivery: deliveries.data.map((delivery: { id: string }) => delivery.id),
      provider_connection: [connection.id],
      routing_rule: [rule.id],
      customer: [customer.id],
      plan: [plan.id],
      subscription: [subscription.id],
      invoice: [subscription.latest_invoice.id],
      test_clock: [clock.id],
      checkout_session: sessions,
      payment_method: [card.id],
      file: [file.id]
    }
    return { ids, connectionName, pspWebhookSecret } satisfies MerchantObjects
  })
