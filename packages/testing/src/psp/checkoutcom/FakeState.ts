import type * as http from "node:http"
import type { PspAnswer } from "../FakePspServer.js"
import type { FakeCheckoutComFile } from "./FakeFiles.js"

/** One action on a fake payment, as `GET /payments/{id}/actions` lists it. */
export interface CheckoutComAction {
  readonly id: string
  readonly type: "Authorization" | "Capture" | "Void" | "Refund"
  readonly amount: number
  readonly approved: boolean
  readonly responseCode: string
  readonly responseSummary: string
  readonly reference: string | undefined
  readonly processedOn: string
}

/** One payment the fake holds, in Checkout.com's units. */
export interface CheckoutComPayment {
  readonly id: string
  readonly reference: string
  readonly amount: number
  readonly currency: string
  readonly capture: boolean
  status: string
  approved: boolean
  readonly metadata: Record<string, unknown>
  readonly successUrl: string | undefined
  readonly failureUrl: string | undefined
  readonly requestedOn: string
  readonly sourceId: string
  readonly actions: Array<CheckoutComAction>
  captured: number
  refunded: number
  voided: number
  /** The scheme's transaction id, once the card network saw the payment. */
  readonly schemeId: string
}

/** What the fake holds: payments by id, payments made per idempotency key, and actions held back. */
export interface CheckoutComState {
  readonly processingChannelId: string
  readonly payments: Map<string, CheckoutComPayment>
  readonly counts: Map<string, number>
  /** While set, captures, voids and refunds are accepted (202) but carried out only by `settleActions`. */
  holdActions: boolean
  readonly held: Array<() => void>
  readonly baseUrl: () => string
  /** Disputes by id: their `status` (of Checkout.com's `Dispute`), the evidence provided, their payment and when they last changed. */
  readonly disputes: Map<string, FakeCheckoutComDispute>
  /** Files uploaded as dispute evidence, by id. */
  readonly files: Map<string, FakeCheckoutComFile>
}

export interface FakeCheckoutComDispute {
  status: string
  evidence: Record<string, unknown>
  readonly paymentId: string
  readonly receivedOn: string
  lastUpdate: string
}

let sequence = 0
/** Checkout.com's ids: a prefix and 26 lower-case letters and digits. */
export const newId = (prefix: "pay" | "act" | "src" | "sid" | "evt" | "file") =>
  `${prefix}_${(Date.now().toString(36) + (sequence++).toString(36).padStart(6, "0") + "k".repeat(26)).slice(0, 26)}`

/**
 * The tokens this fake knows (`tok_…` from Frames, or `src_…` stored), each naming its outcome:
 * `tok_` + the name, padded to Checkout.com's 26 characters with zeros.
 */
export const checkoutComToken = (name: string, kind: "tok" | "src" = "tok") => `${kind}_${name.padEnd(26, "0")}`

/** What each token name does: Checkout.com's response code and summary for the declines. */
export const DECLINES: Readonly<Record<string, readonly [string, string]>> = {
  declined: ["20005", "Declined - Do Not Honour"],
  nofunds: ["20051", "Insufficient Funds"],
  expired: ["20054", "Expired Card"],
  badcvv: ["20087", "Bad Track Data"],
  fraud: ["20059", "Suspected Fraud"],
  issuerdown: ["20091", "Issuer Unavailable"]
}
export const OUTCOMES = new Set(["approved", "threeds", "pending", ...Object.keys(DECLINES)])

/** The name of a known token, from `checkoutComToken`. */
export const tokenName = (token: unknown) => typeof token === "string" && /^(tok|src)_\w{26}$/.test(token) ? token.slice(4).replace(/0+$/, "") : undefined

/** Checkout.com's error body. */
export const validationError = (
  status: number,
  ...codes: ReadonlyArray<string>
): PspAnswer => [status, { request_id: newId("act").replace("act_", "req_"), error_type: "request_invalid", error_codes: codes }]

/** The card behind every approved fake payment. */
export const cardSource = (id: string) => ({
  type: "card",
  id,
  expiry_month: 12,
  expiry_year: 2030,
  scheme: "Visa",
  last4: "4242",
  fingerprint: "F639CAB2745BEE4140BF86DF6B6D6",
  bin: "424242",
  issuer_country: "GB"
})

export const recordAction = (
  payment: CheckoutComPayment,
  type: CheckoutComAction["type"],
  amount: number,
  reference: string | undefined,
  declined?: readonly [string, string],
  id = newId("act")
): CheckoutComAction => {
  const action: CheckoutComAction = {
    id,
    type,
    amount,
    approved: declined === undefined,
    responseCode: declined?.[0] ?? "10000",
    responseSummary: declined?.[1] ?? "Approved",
    reference,
    processedOn: new Date().toISOString()
  }
  payment.actions.push(action)
  return action
}

/** The issuer's 3DS page: back to `success_url` (or `failure_url` with `?result=fail`) with a `cko-session-id`. */
export const completeChallenge = (state: CheckoutComState, url: URL, response: http.ServerResponse) => {
  const payment = state.payments.get(url.pathname.split("/")[3] ?? "")
  if (payment === undefined || payment.status !== "Pending") return response.writeHead(404).end()
  const passed = url.searchParams.get("result") !== "fail"
  if (passed) {
    payment.approved = true
    payment.status = payment.capture ? "Captured" : "Authorized"
    if (payment.capture) payment.captured = payment.amount
    recordAction(payment, "Authorization", payment.amount, payment.reference)
  } else {
    payment.status = "Declined"
    recordAction(payment, "Authorization", payment.amount, payment.reference, ["20151", "Cardholder failed 3DS authentication"])
  }
  const back = new URL((passed ? payment.successUrl : payment.failureUrl) ?? "https://merchant.invalid/")
  back.searchParams.set("cko-session-id", newId("sid"))
  response.writeHead(302, { location: back.toString() }).end()
}
