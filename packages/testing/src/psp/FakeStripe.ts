import { Effect } from "effect"
import { createHmac } from "node:crypto"
import qs from "qs"
import { fakeControls, type PspAnswer, type PspFault, startFakePspServer } from "./FakePspServer.js"
import { type FakeStripeBilling, makeFakeStripeBilling } from "./FakeStripeBilling.js"
import { disputeObject, type DisputeRecord, handleDispute, openDispute } from "./FakeStripeDisputes.js"
import { type StripeFileRecord, uploadFile } from "./FakeStripeFiles.js"
import {
  actOnIntent,
  APPROVED,
  completeChallenge,
  createIntent,
  DECLINES,
  type Intent,
  intentObject,
  type PaymentIntentsState,
  searchIntents
} from "./FakeStripePaymentIntents.js"
import { createPaymentMethod, type PaymentMethodsState } from "./FakeStripePaymentMethods.js"
import { createRefund, readRefunds, refundObject, type RefundRecord } from "./FakeStripeRefunds.js"
import type { RecordedExchange } from "./OpenApiContract.js"
import { type FakeStripeContext, stripeError } from "./StripeError.js"

/**
 * A local Stripe, written from Stripe's API reference (docs.stripe.com/api, API version
 * 2020-08-27): PaymentIntents created and confirmed in one call, captured, canceled and refunded,
 * retrieved, searched by metadata; Stripe's test payment methods decide outcomes; `Idempotency-Key`
 * replays the first answer (and refuses the same key with other parameters), so tests can count
 * what was really charged per key. Faults can be injected on the next POST.
 */

/** The error answer a test can inject, in Stripe's shape. */
type StripeFault = { readonly status: number; readonly type: string; readonly code?: string; readonly message?: string }

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
  injectFault: (fault: PspFault<StripeFault>) => void
  /** A received request hung by the fault is there: the tests' cue to move the clock. */
  readonly hungRequests: () => number
  /** The next POST is processed but never answered (the `hang` fault): the connector must time out. */
  readonly dropNextAnswer: () => void
  /** PaymentIntents whose `metadata[reference]` is ours, however many keys created them. */
  readonly paymentsFor: (reference: string) => number
  /** The body and headers of a webhook event of `type` about `object`, signed with `secret` at `timestamp`. */
  readonly signedEvent: (secret: string, type: string, object: unknown, timestamp: number) => { body: string; signature: string }
  /** Refunds answer `pending` until `settleRefund`. */
  pendingRefunds: boolean
  readonly settleRefund: (id: string, status: "succeeded" | "failed") => RefundRecord
  /** The objects as Stripe shows them, e.g. inside a webhook event. */
  readonly intentObject: (id: string) => unknown
  readonly refundObject: (id: string) => unknown
  /** Disputes, by id: `openDispute` opens one on a succeeded PaymentIntent, as the cardholder's bank would. */
  readonly disputes: Map<string, DisputeRecord>
  readonly openDispute: (paymentIntentId: string, options?: { readonly reason?: string; readonly inquiry?: boolean }) => DisputeRecord
  readonly disputeObject: (id: string) => unknown
  /** Files uploaded (`POST /v1/files`, served here as on Stripe's files host), by id, their bytes as received. */
  readonly files: Map<string, StripeFileRecord>
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

/** An event's body as Stripe sends it, and its `Stripe-Signature` at `timestamp`. */
const signed = (secret: string, id: string, type: string, object: unknown, created: number, timestamp: number) => {
  const body = JSON.stringify({ id, object: "event", type, created, livemode: false, data: { object } })
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")
  return { body, signature: `t=${timestamp},v1=${signature}` }
}

/** Starts the fake on a free port of 127.0.0.1; it stops with the scope. */
export const fakeStripe = Effect.acquireRelease(
  Effect.promise(() => startFakeStripe()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeStripe = async (): Promise<FakeStripe & { close: () => Promise<void> }> => {
  const paymentMethods: PaymentMethodsState = new Map()
  const state: PaymentIntentsState = { intents: new Map(), charges: new Map(), aliases: paymentMethods }
  const refunds = new Map<string, RefundRecord>()
  const disputes = new Map<string, DisputeRecord>()
  const files = new Map<string, StripeFileRecord>()
  let baseUrl = ""
  const fake = {
    pendingRefunds: false
  }
  const now = () => Math.floor(Date.now() / 1000)
  const context: FakeStripeContext = { newId, now, baseUrl: () => baseUrl }

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
  const handle = (method: string, url: URL, form: Record<string, any>, idempotencyKey: string | undefined, bytes: Uint8Array): PspAnswer => {
    if (method === "POST" && url.pathname === "/v1/files") return uploadFile(context, files, bytes)
    const parts = url.pathname.split("/").filter((part) => part !== "")
    if (method === "POST" && url.pathname === "/v1/payment_methods") return createPaymentMethod(paymentMethods, context.newId, form)
    if (method === "POST" && url.pathname === "/v1/payment_intents") return createIntent(state, context, form, idempotencyKey)
    if (method === "GET" && url.pathname === "/v1/payment_intents/search") return searchIntents(state, context, url)
    if (parts[1] === "payment_intents" && parts[2] !== undefined) {
      const acted = actOnIntent(state, context, method, parts, form)
      if (acted !== undefined) return acted
    }
    if (method === "POST" && url.pathname === "/v1/refunds") {
      return createRefund(state.intents, refunds, { ...context, pendingRefunds: fake.pendingRefunds }, form)
    }
    if (method === "GET" && url.pathname === "/v1/refunds") return readRefunds(refunds, url, undefined)
    if (method === "GET" && parts[1] === "refunds" && parts[2] !== undefined) return readRefunds(refunds, url, parts[2])
    const disputed = handleDispute(context, disputes, files, method, parts, form)
    if (disputed !== undefined) return disputed
    const billed = billing.handle(method, parts, form, url.searchParams.getAll("expand[]"))
    if (billed !== undefined) return billed
    return [404, stripeError("invalid_request_error", `Unrecognized request URL (${method}: ${url.pathname}).`)]
  }

  const server = await startFakePspServer<StripeFault>({
    origin: "http://fake.stripe",
    challenge: (url, response) => completeChallenge(state, url, response),
    refuse: (request) =>
      /^Bearer (sk|rk)_test_\w+$/.test(request.headers.authorization ?? "")
        ? undefined
        : [401, stripeError("invalid_request_error", "Invalid API Key provided.")],
    keyedMethod: (method) => method === "POST",
    faultAnswer: (fault) => [fault.status, stripeError(fault.type, fault.message ?? "Injected failure.", fault.code ? { code: fault.code } : {})],
    keyReused: [400, stripeError("idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with.`)],
    matchesPath: true,
    responseHeaders: () => ({ "request-id": newId("req") }),
    replayHeaders: { "idempotent-replayed": "true" },
    handle: (method, url, body, key, bytes) =>
      handle(method, url, method === "POST" && url.pathname !== "/v1/files" ? qs.parse(body, { depth: 20 }) : {}, key, bytes)
  })
  baseUrl = server.url
  return Object.assign(fake, {
    url: baseUrl,
    ...fakeControls(server),
    intents: state.intents,
    refunds,
    chargesFor: (key: string) => state.charges.get(key) ?? 0,
    paymentsFor: (reference: string) => [...state.intents.values()].filter((intent) => intent.metadata.reference === reference).length,
    signedEvent: (secret: string, type: string, object: unknown, timestamp: number) => signed(secret, newId("evt"), type, object, timestamp, timestamp),
    settleRefund: (id: string, status: "succeeded" | "failed") => {
      const refund = refunds.get(id)!
      refund.status = status
      return refund
    },
    intentObject: (id: string) => intentObject(state.intents.get(id)!, baseUrl),
    refundObject: (id: string) => refundObject(refunds.get(id)!),
    disputes,
    openDispute: (paymentIntentId: string, options?: { readonly reason?: string; readonly inquiry?: boolean }) =>
      openDispute(context, disputes, state.intents.get(paymentIntentId)!, options),
    disputeObject: (id: string) => disputeObject(disputes.get(id)!),
    files,
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
    close: server.close
  })
}
