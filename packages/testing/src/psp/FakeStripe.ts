import { Effect } from "effect"
import { createHmac } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import qs from "qs"
import { type FakeStripeBilling, makeFakeStripeBilling } from "./FakeStripeBilling.js"
import type { RecordedExchange } from "./OpenApiContract.js"

/**
 * A local Stripe, written from Stripe's API reference (docs.stripe.com/api, API version
 * 2020-08-27): PaymentIntents created and confirmed in one call, captured, canceled and refunded,
 * retrieved, searched by metadata; Stripe's test payment methods decide outcomes; `Idempotency-Key`
 * replays the first answer (and refuses the same key with other parameters), so tests can count
 * what was really charged per key. Faults can be injected on the next POST.
 */

type Fault =
  | "hang"
  | "reset"
  /** Processed at once, answered only after `delayMs` (real time): a PSP slower than our deadline. */
  | { readonly delayMs: number }
  | { readonly status: number; readonly type: string; readonly code?: string; readonly message?: string }

interface Intent {
  id: string
  amount: number
  amount_received: number
  currency: string
  capture_method: "automatic" | "manual"
  status: string
  metadata: Record<string, string>
  return_url: string | null
  payment_method: string
  last_payment_error: Record<string, unknown> | null
  cancellation_reason: string | null
  refunded: number
  created: number
}

interface RefundRecord {
  id: string
  amount: number
  currency: string
  payment_intent: string
  status: string
  metadata: Record<string, string>
  created: number
}

/** Stripe's test PaymentMethods (docs.stripe.com/testing) this fake knows, and what each does. */
const DECLINES: Readonly<Record<string, { code: string; decline_code?: string; message: string }>> = {
  pm_card_chargeDeclined: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds."
  },
  pm_card_chargeDeclinedExpiredCard: { code: "expired_card", message: "Your card has expired." },
  pm_card_chargeDeclinedIncorrectCvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  pm_card_chargeDeclinedProcessingError: {
    code: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit."
  }
}
const APPROVED = new Set(["pm_card_visa", "pm_card_mastercard", "pm_card_threeDSecure2Required"])

export interface FakeStripe {
  readonly url: string
  readonly exchanges: Array<RecordedExchange>
  /** PaymentIntents really created under an idempotency key (replays do not count). */
  readonly chargesFor: (idempotencyKey: string) => number
  readonly intents: Map<string, Intent>
  readonly refunds: Map<string, RefundRecord>
  /**
   * The next POST gets this fault: hung (processed, never answered), reset after processing, answered
   * late, or an error status (with `message` as Stripe's error message).
   */
  injectFault: (fault: Fault) => void
  /** A received request hung by the fault is there: the tests' cue to move the clock. */
  readonly hungRequests: () => number
  /** The body and headers of a webhook event of `type` about `object`, signed with `secret` at `timestamp`. */
  readonly signedEvent: (secret: string, type: string, object: unknown, timestamp: number) => { body: string; signature: string }
  /** Refunds answer `pending` until `settleRefund`. */
  pendingRefunds: boolean
  readonly settleRefund: (id: string, status: "succeeded" | "failed") => RefundRecord
  /** The objects as Stripe shows them, e.g. inside a webhook event. */
  readonly intentObject: (id: string) => unknown
  readonly refundObject: (id: string) => unknown
  /** Stripe Billing: test clocks, customers, prices, subscriptions and their invoices, and the events they made. */
  readonly billing: FakeStripeBilling
  /**
   * Sends Stripe's webhooks of the Billing events not sent yet, in order, each signed with `secret`
   * now, to `url`; answers the HTTP statuses received.
   */
  readonly sendBillingEvents: (url: string, secret: string, max?: number) => Promise<ReadonlyArray<number>>
}

let sequence = 0
const newId = (prefix: string) => `${prefix}_${(Date.now() + sequence++).toString(36)}${Math.random().toString(36).slice(2, 10)}`

const intentObject = (intent: Intent, baseUrl: string) => ({
  id: intent.id,
  object: "payment_intent",
  amount: intent.amount,
  amount_capturable: intent.status === "requires_capture" ? intent.amount : 0,
  amount_received: intent.amount_received,
  capture_method: intent.capture_method,
  confirmation_method: "automatic",
  created: intent.created,
  currency: intent.currency,
  livemode: false,
  metadata: intent.metadata,
  payment_method: intent.payment_method,
  payment_method_types: ["card"],
  status: intent.status,
  cancellation_reason: intent.cancellation_reason,
  last_payment_error: intent.last_payment_error,
  next_action: intent.status === "requires_action"
    ? { type: "redirect_to_url", redirect_to_url: { url: `${baseUrl}/fake/3ds/${intent.id}`, return_url: intent.return_url } }
    : null,
  charges: {
    object: "list",
    has_more: false,
    url: `/v1/charges?payment_intent=${intent.id}`,
    data: intent.status === "succeeded" || intent.status === "requires_capture"
      ? [{
        id: `ch_${intent.id.slice(3)}`,
        object: "charge",
        amount: intent.amount,
        amount_captured: intent.amount_received,
        amount_refunded: intent.refunded,
        billing_details: { address: null, email: null, name: null, phone: null },
        captured: intent.status === "succeeded",
        created: intent.created,
        currency: intent.currency,
        disputed: false,
        livemode: false,
        metadata: {},
        paid: true,
        refunded: intent.refunded >= intent.amount_received && intent.refunded > 0,
        refunds: { object: "list", data: [], has_more: false, url: `/v1/charges/ch_${intent.id.slice(3)}/refunds` },
        status: "succeeded",
        payment_intent: intent.id,
        payment_method_details: {
          type: "card",
          card: { brand: "visa", last4: "4242", country: "US", exp_month: 12, exp_year: 2034, funding: "credit" }
        }
      }]
      : []
  }
})

const refundObject = (refund: RefundRecord) => ({
  id: refund.id,
  object: "refund",
  amount: refund.amount,
  created: refund.created,
  currency: refund.currency,
  metadata: refund.metadata,
  payment_intent: refund.payment_intent,
  status: refund.status,
  reason: null
})

/** An event's body as Stripe sends it, and its `Stripe-Signature` at `timestamp`. */
const signed = (secret: string, id: string, type: string, object: unknown, created: number, timestamp: number) => {
  const body = JSON.stringify({ id, object: "event", type, created, livemode: false, data: { object } })
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")
  return { body, signature: `t=${timestamp},v1=${signature}` }
}

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra }
})

/** Starts the fake on a free port of 127.0.0.1; it stops with the scope. */
export const fakeStripe = Effect.acquireRelease(
  Effect.promise(() => startFakeStripe()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeStripe = async (): Promise<FakeStripe & { close: () => Promise<void> }> => {
  const exchanges: Array<RecordedExchange> = []
  const intents = new Map<string, Intent>()
  const refunds = new Map<string, RefundRecord>()
  const idempotency = new Map<string, { body: string; path: string; status: number; response: string }>()
  const charges = new Map<string, number>()
  const sockets = new Set<import("node:net").Socket>()
  let fault: Fault | null = null
  let hung = 0
  let baseUrl = ""
  const fake = {
    pendingRefunds: false
  }

  const now = () => Math.floor(Date.now() / 1000)

  const billing = makeFakeStripeBilling({
    newId,
    now,
    knows: (token) => APPROVED.has(token) || DECLINES[token] !== undefined,
    // Off-session, nobody can answer 3D Secure: Stripe declines with authentication_required.
    chargeOffSession: (token) => {
      const decline = DECLINES[token]
      if (decline !== undefined) return { paid: false, code: decline.decline_code ?? decline.code }
      return token === "pm_card_threeDSecure2Required" ? { paid: false, code: "authentication_required" } : { paid: true }
    }
  })
  let billingEventsSent = 0

  /** Handles one request; returns the status and JSON body Stripe would answer. */
  const handle = (method: string, url: URL, form: Record<string, any>, idempotencyKey: string | undefined): [number, unknown] => {
    const parts = url.pathname.split("/").filter((part) => part !== "")
    if (method === "POST" && url.pathname === "/v1/payment_intents") {
      const paymentMethod = String(form.payment_method ?? "")
      if (!APPROVED.has(paymentMethod) && DECLINES[paymentMethod] === undefined) {
        return [400, stripeError("invalid_request_error", `No such PaymentMethod: '${paymentMethod}'`, { code: "resource_missing", param: "payment_method" })]
      }
      const intent: Intent = {
        id: newId("pi"),
        amount: Number(form.amount),
        amount_received: 0,
        currency: String(form.currency),
        capture_method: form.capture_method === "manual" ? "manual" : "automatic",
        status: "requires_payment_method",
        metadata: (form.metadata ?? {}) as Record<string, string>,
        return_url: form.return_url ?? null,
        payment_method: paymentMethod,
        last_payment_error: null,
        cancellation_reason: null,
        refunded: 0,
        created: now()
      }
      intents.set(intent.id, intent)
      if (idempotencyKey !== undefined) charges.set(idempotencyKey, (charges.get(idempotencyKey) ?? 0) + 1)
      const decline = DECLINES[paymentMethod]
      if (decline !== undefined) {
        intent.last_payment_error = { type: "card_error", ...decline }
        return [402, stripeError("card_error", decline.message, {
          code: decline.code,
          ...(decline.decline_code === undefined ? {} : { decline_code: decline.decline_code }),
          payment_intent: intentObject(intent, baseUrl)
        })]
      }
      if (paymentMethod === "pm_card_threeDSecure2Required" && form.return_url !== undefined) {
        intent.status = "requires_action"
      } else {
        intent.status = intent.capture_method === "manual" ? "requires_capture" : "succeeded"
        intent.amount_received = intent.capture_method === "manual" ? 0 : intent.amount
      }
      return [200, intentObject(intent, baseUrl)]
    }
    if (method === "GET" && url.pathname === "/v1/payment_intents/search") {
      const wanted = /metadata\['([^']+)'\]:'([^']*)'/.exec(url.searchParams.get("query") ?? "")
      const data = [...intents.values()].filter((intent) => wanted !== null && intent.metadata[wanted[1]!] === wanted[2])
      return [200, { object: "search_result", data: data.map((intent) => intentObject(intent, baseUrl)), has_more: false, url: "/v1/payment_intents/search" }]
    }
    if (parts[1] === "payment_intents" && parts[2] !== undefined) {
      const intent = intents.get(parts[2])
      if (intent === undefined) {
        return [404, stripeError("invalid_request_error", `No such payment_intent: '${parts[2]}'`, { code: "resource_missing", param: "intent" })]
      }
      const unexpected = (action: string) =>
        [400, stripeError("invalid_request_error", `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`, {
          code: "payment_intent_unexpected_state"
        })] as [number, unknown]
      if (method === "GET" && parts.length === 3) return [200, intentObject(intent, baseUrl)]
      if (method === "POST" && parts[3] === "capture") {
        if (intent.status !== "requires_capture") return unexpected("captured")
        const amount = form.amount_to_capture === undefined ? intent.amount : Number(form.amount_to_capture)
        if (amount > intent.amount) {
          return [400, stripeError("invalid_request_error", "The amount to capture exceeds the authorized amount.", { code: "amount_too_large" })]
        }
        intent.status = "succeeded"
        intent.amount_received = amount
        return [200, intentObject(intent, baseUrl)]
      }
      if (method === "POST" && parts[3] === "cancel") {
        if (!["requires_payment_method", "requires_capture", "requires_action", "requires_confirmation"].includes(intent.status)) {
          return unexpected("canceled")
        }
        intent.status = "canceled"
        intent.cancellation_reason = form.cancellation_reason ?? null
        return [200, intentObject(intent, baseUrl)]
      }
    }
    if (method === "POST" && url.pathname === "/v1/refunds") {
      const intent = intents.get(String(form.payment_intent ?? ""))
      if (intent === undefined || intent.status !== "succeeded") {
        return [400, stripeError("invalid_request_error", "This PaymentIntent has no successful charge to refund.", { code: "charge_not_refundable" })]
      }
      const amount = form.amount === undefined ? intent.amount_received - intent.refunded : Number(form.amount)
      if (amount > intent.amount_received - intent.refunded) {
        return [400, stripeError("invalid_request_error", "Refund amount is greater than unrefunded amount on charge.", { code: "amount_too_large", param: "amount" })]
      }
      intent.refunded += amount
      const refund: RefundRecord = {
        id: newId("re"),
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        status: fake.pendingRefunds ? "pending" : "succeeded",
        metadata: (form.metadata ?? {}) as Record<string, string>,
        created: now()
      }
      refunds.set(refund.id, refund)
      return [200, refundObject(refund)]
    }
    if (method === "GET" && url.pathname === "/v1/refunds") {
      const data = [...refunds.values()].filter((refund) => refund.payment_intent === url.searchParams.get("payment_intent"))
      return [200, { object: "list", data: data.map(refundObject), has_more: false, url: "/v1/refunds" }]
    }
    if (method === "GET" && parts[1] === "refunds" && parts[2] !== undefined) {
      const refund = refunds.get(parts[2])
      return refund === undefined
        ? [404, stripeError("invalid_request_error", `No such refund: '${parts[2]}'`, { code: "resource_missing", param: "id" })]
        : [200, refundObject(refund)]
    }
    const billed = billing.handle(method, parts, form, url.searchParams.getAll("expand[]"))
    if (billed !== undefined) return billed
    return [404, stripeError("invalid_request_error", `Unrecognized request URL (${method}: ${url.pathname}).`)]
  }

  /** The issuer's 3DS page: `?result=fail` fails it; the customer goes back to the return_url as Stripe sends them. */
  const challenge = (url: URL, response: http.ServerResponse) => {
    const intent = intents.get(url.pathname.split("/")[3] ?? "")
    if (intent === undefined || intent.status !== "requires_action") {
      response.writeHead(404).end()
      return
    }
    if (url.searchParams.get("result") === "fail") {
      intent.status = "requires_payment_method"
      intent.last_payment_error = {
        type: "invalid_request_error",
        code: "payment_intent_authentication_failure",
        message: "We are unable to authenticate your payment method."
      }
    } else {
      intent.status = intent.capture_method === "manual" ? "requires_capture" : "succeeded"
      intent.amount_received = intent.capture_method === "manual" ? 0 : intent.amount
    }
    const back = new URL(intent.return_url!)
    back.searchParams.set("payment_intent", intent.id)
    back.searchParams.set("payment_intent_client_secret", `${intent.id}_secret_fake`)
    response.writeHead(302, { location: back.toString() }).end()
  }

  const server = http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const url = new URL(request.url ?? "/", "http://fake.stripe")
      if (url.pathname.startsWith("/fake/3ds/")) return challenge(url, response)
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : value]))
      const method = request.method ?? "GET"
      const answer = (status: number, json: unknown) => {
        const text = JSON.stringify(json)
        exchanges.push({ method, url: request.url ?? "/", headers, body, status, responseBody: text })
        response.writeHead(status, { "content-type": "application/json", "request-id": newId("req") }).end(text)
      }
      if (!/^Bearer (sk|rk)_test_\w+$/.test(request.headers.authorization ?? "")) {
        return answer(401, stripeError("invalid_request_error", "Invalid API Key provided."))
      }
      const key = request.headers["idempotency-key"] as string | undefined
      const injected = method === "POST" ? fault : null
      if (injected !== null) fault = null
      if (injected !== null && typeof injected === "object" && "status" in injected) {
        return answer(
          injected.status,
          stripeError(injected.type, injected.message ?? "Injected failure.", injected.code ? { code: injected.code } : {})
        )
      }
      const saved = key === undefined || method !== "POST" ? undefined : idempotency.get(key)
      let status: number
      let json: unknown
      if (saved !== undefined) {
        if (saved.body !== body || saved.path !== url.pathname) {
          ;[status, json] = [400, stripeError("idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with.`)]
        } else {
          ;[status, json] = [saved.status, JSON.parse(saved.response)]
          response.setHeader("idempotent-replayed", "true")
        }
      } else {
        ;[status, json] = handle(method, url, method === "POST" ? qs.parse(body, { depth: 20 }) : {}, key)
        if (key !== undefined && method === "POST") {
          idempotency.set(key, { body, path: url.pathname, status, response: JSON.stringify(json) })
        }
      }
      // The work is done and remembered; only the answer is lost.
      if (injected === "hang") {
        hung++
        return
      }
      if (injected !== null && typeof injected === "object") {
        hung++
        const timer = setTimeout(() => {
          if (!response.destroyed) answer(status, json)
        }, injected.delayMs)
        response.on("close", () => clearTimeout(timer))
        return
      }
      if (injected === "reset") {
        request.socket.destroy()
        return
      }
      answer(status, json)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(fake, {
    url: baseUrl,
    exchanges,
    intents,
    refunds,
    chargesFor: (key: string) => charges.get(key) ?? 0,
    injectFault: (next: Fault) => {
      fault = next
    },
    hungRequests: () => hung,
    signedEvent: (secret: string, type: string, object: unknown, timestamp: number) =>
      signed(secret, newId("evt"), type, object, timestamp, timestamp),
    settleRefund: (id: string, status: "succeeded" | "failed") => {
      const refund = refunds.get(id)!
      refund.status = status
      return refund
    },
    intentObject: (id: string) => intentObject(intents.get(id)!, baseUrl),
    refundObject: (id: string) => refundObject(refunds.get(id)!),
    billing,
    sendBillingEvents: async (target: string, secret: string, max = Infinity) => {
      const statuses: Array<number> = []
      while (billingEventsSent < billing.events.length && statuses.length < max) {
        const event = billing.events[billingEventsSent++]!
        const { body, signature } = signed(secret, event.id, event.type, event.object, event.created, now())
        const response = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
          body
        })
        await response.text()
        statuses.push(response.status)
      }
      return statuses
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  })
}
