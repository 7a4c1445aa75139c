import { Effect } from "effect"
import type * as http from "node:http"
import { fakeControls, type PspFault, startFakePspServer } from "../FakePspServer.js"
import type { RecordedExchange } from "../OpenApiContract.js"
import {
  decimalOf,
  type FakeMollieCapture,
  type FakeMollieChargeback,
  type FakeMolliePayment,
  type FakeMollieRefund,
  mollieError,
  type MollieStatus
} from "./Objects.js"
import { handleMollie, type MollieState, settle } from "./Routes.js"

/**
 * A local Mollie Payments API v2, written from Mollie's published OpenAPI document and its guides:
 * `Authorization: Bearer test_…|live_…` (the key's prefix is the mode), JSON in and
 * `application/hal+json` out, amounts as decimal strings with exactly the currency's decimals,
 * `_links.checkout` to a checkout page (`/fake/3ds/{id}?result=paid|failed|canceled|expired`) that
 * sends the customer back to `redirectUrl`, captures, release of an authorization, cancel, refunds,
 * and `Idempotency-Key` replaying the first answer. Chargebacks are the tests' (`chargeBack`,
 * `reverseChargeback`), read under their payment (`/v2/payments/{id}/chargebacks`). Classic webhooks are `id=tr_…` bodies the
 * tests post themselves (`webhookBody`): Mollie signs nothing.
 */

/** The error answer a test can inject, in Mollie's shape. */
type MollieFault = { readonly status: number; readonly title?: string; readonly detail?: string }

export type { FakeMollieCapture, FakeMollieChargeback, FakeMolliePayment, FakeMollieRefund, MollieStatus }

export interface FakeMollie {
  readonly url: string
  readonly exchanges: Array<RecordedExchange>
  readonly payments: Map<string, FakeMolliePayment>
  readonly refunds: Array<FakeMollieRefund>
  readonly captures: Array<FakeMollieCapture>
  /** How many payments were created under an idempotency key (a replay creates none). */
  readonly paymentsFor: (idempotencyKey: string) => number
  readonly injectFault: (fault: PspFault<MollieFault>) => void
  readonly hungRequests: () => number
  /** The next POST or DELETE is processed but never answered (the `hang` fault): the connector must time out. */
  readonly dropNextAnswer: () => void
  /** Payments whose `metadata.reference` is ours, however many keys created them. */
  readonly paymentsWithReference: (reference: string) => ReadonlyArray<FakeMolliePayment>
  /** Captures answer `pending` from now on (Mollie settles them later), or `succeeded` again. */
  readonly capturesPending: (pending: boolean) => void
  /** Moves a payment as the customer, the issuer or time would (then Mollie calls the webhook). */
  readonly settle: (paymentId: string, status: MollieStatus, reasonCode?: string) => void
  readonly settleRefund: (refundId: string, status: FakeMollieRefund["status"]) => void
  readonly chargebacks: Array<FakeMollieChargeback>
  /** The customer's bank takes a paid payment's amount back (all of it unless `amount` says), at `at` (an ISO time with offset). */
  readonly chargeBack: (
    paymentId: string,
    options?: { readonly minor?: number; readonly reason?: FakeMollieChargeback["reason"]; readonly at?: string }
  ) => FakeMollieChargeback
  /** The chargeback is reversed (the merchant won it), at `at`. */
  readonly reverseChargeback: (id: string, at: string) => void
  /** The body of Mollie's classic webhook for a payment: `id=tr_…`, form-encoded. */
  readonly webhookBody: (paymentId: string) => string
}

export const fakeMollie = Effect.acquireRelease(
  Effect.promise(() => startFakeMollie()),
  (fake) => Effect.promise(() => fake.close())
)

/** The checkout page: the test's `result` is what the customer did there; back to `redirectUrl` either way. */
const checkoutPage = (state: MollieState, url: URL, response: http.ServerResponse) => {
  const payment = state.payments.get(url.pathname.split("/").at(-1) ?? "")
  if (payment === undefined) return response.writeHead(404).end("No such payment")
  if (payment.status === "open") {
    const result = url.searchParams.get("result") ?? "paid"
    const status = result === "paid" && payment.captureMode === "manual" ? "authorized" : result as MollieStatus
    settle(payment, status)
  }
  response.writeHead(302, { location: payment.redirectUrl }).end()
}

export const startFakeMollie = async (): Promise<FakeMollie & { close: () => Promise<void> }> => {
  let baseUrl = ""
  const state: MollieState = {
    origin: () => baseUrl,
    payments: new Map(),
    refunds: [],
    captures: [],
    chargebacks: [],
    counts: new Map(),
    captureStatus: "succeeded",
    sequence: 0
  }
  const modeOf = (request: http.IncomingMessage): "test" | "live" | undefined => {
    const match = /^Bearer (test|live)_\w{8,}$/.exec(request.headers.authorization ?? "")
    return match === null ? undefined : match[1] as "test" | "live"
  }

  // The mode of the request being handled: `refuse` reads the key and `handle` follows it in the same tick.
  let currentMode: "test" | "live" = "test"
  const server = await startFakePspServer<MollieFault>({
    origin: "http://fake.mollie",
    challenge: (url, response) => checkoutPage(state, url, response),
    refuse: (request) => {
      const mode = modeOf(request)
      if (mode === undefined) return mollieError(401, "Unauthorized Request", "Missing authentication, or failed to authenticate")
      currentMode = mode
      return undefined
    },
    keyedMethod: (method) => method === "POST" || method === "DELETE",
    faultAnswer: (fault) => mollieError(fault.status, fault.title ?? "Injected failure", fault.detail ?? "Injected by the test"),
    keyReused: mollieError(422, "Unprocessable Entity", "The idempotency key was used with another request."),
    matchesPath: true,
    responseHeaders: () => ({}),
    replayHeaders: {},
    contentType: "application/hal+json",
    handle: (method, url, body, key) => handleMollie(state, currentMode, method, url, body, key)
  })
  baseUrl = server.url
  return {
    url: baseUrl,
    ...fakeControls(server),
    payments: state.payments,
    refunds: state.refunds,
    captures: state.captures,
    paymentsFor: (key) => state.counts.get(key) ?? 0,
    paymentsWithReference: (reference) =>
      [...state.payments.values()].filter((payment) => (payment.metadata as { reference?: unknown } | null)?.reference === reference),
    capturesPending: (pending) => {
      state.captureStatus = pending ? "pending" : "succeeded"
    },
    settle: (paymentId, status, reasonCode) => settle(state.payments.get(paymentId)!, status, reasonCode),
    settleRefund: (refundId, status) => {
      state.refunds.find((each) => each.id === refundId)!.status = status
    },
    chargebacks: state.chargebacks,
    chargeBack: (paymentId, options = {}) => {
      const payment = state.payments.get(paymentId)!
      if (payment.status !== "paid") throw new Error(`${paymentId} is not paid`)
      const chargeback: FakeMollieChargeback = {
        id: `chb_Fake${String(++state.sequence).padStart(5, "0")}`,
        paymentId,
        amount: options.minor === undefined ? payment.amount : decimalOf(options.minor, payment.amount.currency),
        reason: options.reason ?? null,
        createdAt: options.at ?? new Date().toISOString().replace(/\.\d+Z$/, "+00:00"),
        reversedAt: null
      }
      state.chargebacks.push(chargeback)
      return chargeback
    },
    reverseChargeback: (id, at) => {
      state.chargebacks.find((each) => each.id === id)!.reversedAt = at
    },
    webhookBody: (paymentId) => new URLSearchParams({ id: paymentId }).toString(),
    close: server.close
  }
}
