import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { fakeControls, type PspFault, startFakePspServer } from "../FakePspServer.js"
import type { RecordedExchange } from "../OpenApiContract.js"
import { handlePayPal, type PayPalState } from "./FakeApi.js"
import { type DisputeChanges, type FakeDispute, fakeDisputes } from "./FakeDisputes.js"
import { captureJson, type FakeOrder, type Funding, paypalError, refundJson } from "./FakeOrders.js"
import { makeFakeWebhooks, type WebhookDelivery } from "./FakeWebhooks.js"

export type { DisputeChanges, FakeDispute, WebhookDelivery }

/**
 * A local PayPal REST API written from PayPal's published documents (Orders v2, Payments v2,
 * Webhooks v1) and its authentication guide: `/v1/oauth2/token` (client credentials, Basic auth),
 * orders created, approved by the payer on an approval page (`/fake/3ds/approve/{id}`, which sends
 * them back to `return_url` with `token` and `PayerID` appended, as PayPal does), captured or
 * authorized, authorizations captured and voided, captures refunded. `PayPal-Request-Id` replays the
 * first answer. Webhooks are built by the tests with `webhook`, and `verify-webhook-signature`
 * answers SUCCESS only for a delivery this fake made, unchanged, for its webhook id. Customer
 * disputes (Disputes v1) are opened and moved by the tests (`openDispute`, `moveDispute`).
 */

/** The error answer a test can inject, with PayPal's issue. */
type PayPalFault = { readonly status: number; readonly issue: string }

export interface FakePayPal {
  readonly url: string
  readonly clientId: string
  readonly clientSecret: string
  readonly exchanges: Array<RecordedExchange>
  readonly orders: Map<string, FakeOrder>
  /** Orders created under a PayPal-Request-Id. */
  readonly ordersFor: (requestId: string) => number
  /** Access tokens issued so far. */
  readonly tokensIssued: () => number
  /** Every token issued so far stops working (PayPal answers 401 to it). */
  readonly revokeTokens: () => void
  /** The payer approves the order, paying with a funding source that behaves as `funding` says. */
  readonly approve: (orderId: string, funding?: Funding) => void
  injectFault: (fault: PspFault<PayPalFault>) => void
  readonly hungRequests: () => number
  /** A webhook delivery of `eventType` about `resource`, signed for `webhookId`. */
  readonly webhook: (webhookId: string, eventType: string, resource: unknown) => WebhookDelivery
  /** Settles a PENDING capture of the order as COMPLETED or DECLINED, and gives its webhook's resource. */
  readonly settleCapture: (orderId: string, to: "COMPLETED" | "DECLINED") => unknown
  /** The resource of the order's capture, for a PAYMENT.CAPTURE.* webhook. */
  readonly captureResource: (orderId: string) => unknown
  /** The resource of the refund `id`, for a PAYMENT.CAPTURE.REFUNDED webhook. */
  readonly refundResource: (id: string) => unknown
  readonly disputes: Map<string, FakeDispute>
  /** A customer dispute of the order's capture (a chargeback waiting for the seller unless `changes` say otherwise). */
  readonly openDispute: (orderId: string, changes?: DisputeChanges) => FakeDispute
  /** The dispute moved as PayPal would move it (dated `changes.at`, now unless given). */
  readonly moveDispute: (id: string, changes: DisputeChanges) => FakeDispute
  /** The dispute as PayPal shows it, for a CUSTOMER.DISPUTE.* webhook. */
  readonly disputeResource: (id: string) => unknown
}

export const fakePayPal = Effect.acquireRelease(
  Effect.promise(() => startFakePayPal()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakePayPal = async (
  clientId = "FAKE-CLIENT-ID",
  clientSecret = "FAKE-CLIENT-SECRET"
): Promise<FakePayPal & { close: () => Promise<void> }> => {
  let baseUrl = ""
  const state: PayPalState = { orders: new Map(), refunds: new Map(), ordersPerRequestId: new Map(), baseUrl: () => baseUrl, nextId: 1 }
  const validTokens = new Set<string>()
  let issued = 0
  const webhooks = makeFakeWebhooks(() => baseUrl)
  const disputes = fakeDisputes(state.orders, () => baseUrl)

  const issueToken = (): [number, unknown] => {
    const token = `A21AA${randomUUID().replace(/-/g, "")}`
    validTokens.add(token)
    issued++
    return [200, {
      scope: "https://uri.paypal.com/services/payments/payment",
      access_token: token,
      token_type: "Bearer",
      app_id: "APP-FAKE",
      expires_in: 32400,
      nonce: randomUUID()
    }]
  }

  const server = await startFakePspServer<PayPalFault>({
    origin: "http://fake.paypal",
    challenge: (url, response) => {
      const order = state.orders.get(decodeURIComponent(url.pathname.split("/").at(-1) ?? ""))
      if (order === undefined || order.returnUrl === undefined) return response.writeHead(404).end("no such order")
      if (url.searchParams.get("cancel") !== "1") {
        order.status = "APPROVED"
        order.funding = (url.searchParams.get("funding") as Funding | null) ?? "ok"
      }
      const back = new URL(order.returnUrl)
      back.searchParams.append("token", order.id)
      back.searchParams.append("PayerID", "FAKEPAYER01")
      response.writeHead(302, { location: back.toString() }).end()
    },
    refuse: (request) => {
      const path = new URL(request.url ?? "/", "http://fake.paypal").pathname
      const authorization = request.headers.authorization ?? ""
      if (path === "/v1/oauth2/token") {
        return authorization === `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`
          ? undefined
          : [401, { error: "invalid_client", error_description: "Client Authentication failed" }]
      }
      return validTokens.has(authorization.replace(/^Bearer /, ""))
        ? undefined
        : paypalError(401, "INVALID_TOKEN", "Access Token not found in cache.")
    },
    // Dispute actions carry no PayPal-Request-Id, but take injected faults (a refused evidence file).
    keyedMethod: (method, url) => method === "POST" && (url.pathname.startsWith("/v2/") || url.pathname.startsWith("/v1/customer/disputes/")),
    idempotencyHeader: "paypal-request-id",
    faultAnswer: (fault) => paypalError(fault.status, fault.issue, "Injected failure"),
    keyReused: paypalError(422, "DUPLICATE_REQUEST_ID", "The PayPal-Request-Id was used for another request."),
    matchesPath: true,
    responseHeaders: () => ({ "paypal-debug-id": "f00dcafe12345" }),
    replayHeaders: {},
    handle: (method, url, body, key, bytes) => {
      if (url.pathname === "/v1/oauth2/token") return issueToken()
      // Multipart, not JSON: the dispute routes read their own bodies, byte for byte (files).
      if (url.pathname.startsWith("/v1/customer/disputes/")) return disputes.handle(method, url.pathname, bytes)
      const json = body === "" ? undefined : JSON.parse(body)
      if (url.pathname === "/v1/notifications/verify-webhook-signature") return webhooks.verify(json)
      return handlePayPal(state, method, url.pathname, json, key)
    }
  })
  baseUrl = server.url

  const orderOf = (id: string) => {
    const order = state.orders.get(id)
    if (order === undefined) throw new Error(`no order ${id}`)
    return order
  }

  return {
    url: baseUrl,
    ...fakeControls(server),
    clientId,
    clientSecret,
    orders: state.orders,
    ordersFor: (requestId) => state.ordersPerRequestId.get(requestId) ?? 0,
    tokensIssued: () => issued,
    revokeTokens: () => validTokens.clear(),
    approve: (orderId, funding = "ok") => {
      const order = orderOf(orderId)
      order.status = "APPROVED"
      order.funding = funding
    },
    webhook: webhooks.webhook,
    settleCapture: (orderId, to) => {
      const order = orderOf(orderId)
      const capture = order.captures.find((each) => each.status === "PENDING")
      if (capture === undefined) throw new Error(`order ${orderId} has no pending capture`)
      capture.status = to
      return captureJson(order, capture)
    },
    captureResource: (orderId) => {
      const order = orderOf(orderId)
      const capture = order.captures[0]
      if (capture === undefined) throw new Error(`order ${orderId} has no capture`)
      return captureJson(order, capture)
    },
    refundResource: (id) => {
      const refund = state.refunds.get(id)
      if (refund === undefined) throw new Error(`no refund ${id}`)
      return refundJson(refund)
    },
    ...disputes.controls,
    close: server.close
  }
}
