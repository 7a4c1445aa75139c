import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { fakeControls, type PspFault, startFakePspServer } from "../FakePspServer.js"
import type { RecordedExchange } from "../OpenApiContract.js"
import { uploadFile } from "./FakeFiles.js"
import { handleCheckoutCom } from "./FakeRoutes.js"
import { type CheckoutComPayment, type CheckoutComState, checkoutComToken, completeChallenge, newId, validationError } from "./FakeState.js"

/**
 * A local Checkout.com Unified Payments API (NAS), written from its published document:
 * `POST /payments` (the token's name decides: see `checkoutComToken`), 3DS as a 202 with
 * `_links.redirect` to a page that sends the customer back to `success_url`/`failure_url`,
 * `GET /payments/{id}` and its actions, captures, voids and refunds answered 202 with an
 * `action_id`. `Cko-Idempotency-Key` replays the first answer; payments are counted per key.
 * Webhooks are built by `event` and signed as Checkout.com signs them (`Cko-Signature`: hex
 * HMAC-SHA256 of the raw body).
 */

export { checkoutComToken }
export type { CheckoutComPayment }

/** An error answer a test can inject: Checkout.com's 4xx with its codes, or a bare 401/5xx. */
type CheckoutComFault = { readonly status: number; readonly error_codes?: ReadonlyArray<string> }

/** The processing channel the fake's account has. */
export const FAKE_PROCESSING_CHANNEL = "pc_fakechannel00000000000000000".slice(0, 29)

export interface FakeCheckoutCom {
  readonly url: string
  readonly processingChannelId: string
  readonly exchanges: Array<RecordedExchange>
  readonly payments: Map<string, CheckoutComPayment>
  readonly paymentsFor: (idempotencyKey: string) => number
  injectFault: (fault: PspFault<CheckoutComFault>) => void
  readonly hungRequests: () => number
  /** The next POST is processed but never answered (the `hang` fault): the connector must time out. */
  readonly dropNextAnswer: () => void
  /** Holds captures, voids and refunds back (accepted, not carried out) until `settleActions`. */
  readonly holdActions: (hold: boolean) => void
  readonly settleActions: () => void
  /** Settles a payment left `Pending` (no redirect): approved or declined, as Checkout.com would later. */
  readonly settle: (paymentId: string, approved: boolean) => void
  /** A webhook body for `type` about the payment (and one of its actions), as a workflow's webhook action sends it. */
  readonly event: (type: string, paymentId: string, actionId?: string) => string
  /**
   * A dispute webhook body (`dispute_received`, `dispute_evidence_required`, `dispute_won`, …) about a
   * dispute `disputeId` of the payment, as Checkout.com's dispute notifications carry it (the fields of
   * its `Dispute` object, with the payment's id and reference), created at `createdOn`.
   */
  readonly disputeEvent: (type: string, paymentId: string, disputeId: string, createdOn: string) => string
  /** Disputes by id, as the dispute webhooks opened them and the evidence and acceptance calls moved them. */
  readonly disputes: CheckoutComState["disputes"]
  /** Files uploaded (`POST /files`), by id, their bytes as received. */
  readonly files: CheckoutComState["files"]
  readonly close: () => Promise<void>
}

/** The `status` of Checkout.com's `Dispute` each dispute webhook type comes with. */
const DISPUTE_STATUSES: Readonly<Record<string, string>> = {
  dispute_evidence_submitted: "evidence_under_review",
  dispute_evidence_acknowledged_by_scheme: "evidence_under_review",
  dispute_won: "won",
  dispute_lost: "lost",
  dispute_expired: "expired",
  dispute_accepted: "accepted",
  dispute_canceled: "canceled",
  dispute_resolved: "resolved",
  dispute_arbitration_sent_to_scheme: "arbitration_under_review",
  dispute_arbitration_won: "arbitration_won",
  dispute_arbitration_lost: "arbitration_lost"
}

/** `Cko-Signature` for a body: computed here from Checkout.com's documentation, not by the connector. */
export const checkoutComSignature = (key: string, body: string) => createHmac("sha256", key).update(body, "utf8").digest("hex")

export const fakeCheckoutCom = Effect.acquireRelease(
  Effect.promise(() => startFakeCheckoutCom()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeCheckoutCom = async (processingChannelId = FAKE_PROCESSING_CHANNEL): Promise<FakeCheckoutCom> => {
  let baseUrl = ""
  const state: CheckoutComState = {
    processingChannelId,
    payments: new Map(),
    counts: new Map(),
    holdActions: false,
    held: [],
    baseUrl: () => baseUrl,
    disputes: new Map(),
    files: new Map()
  }
  const server = await startFakePspServer<CheckoutComFault>({
    origin: "http://fake.checkout.com",
    challenge: (url, response) => completeChallenge(state, url, response),
    refuse: (request) => /^Bearer sk_sbox_\w+$/.test(request.headers.authorization ?? "") ? undefined : [401, undefined],
    keyedMethod: (method) => method === "POST",
    faultAnswer: (fault) =>
      fault.status === 422 || fault.status === 429 ? validationError(fault.status, ...(fault.error_codes ?? [])) : [fault.status, undefined],
    keyReused: [409, undefined],
    matchesPath: true,
    responseHeaders: () => ({ "cko-request-id": newId("act").replace("act_", "") }),
    replayHeaders: {},
    idempotencyHeader: "cko-idempotency-key",
    handle: (method, url, body, key, bytes) =>
      method === "POST" && url.pathname === "/files"
        ? uploadFile(state.files, bytes, () => newId("file"), baseUrl)
        : handleCheckoutCom(state, method, url.pathname, body === "" ? undefined : JSON.parse(body), key)
  })
  baseUrl = server.url

  const disputeEvent = (type: string, paymentId: string, disputeId: string, createdOn: string) => {
    const payment = state.payments.get(paymentId)
    if (payment === undefined) throw new Error(`no payment ${paymentId}`)
    const status = DISPUTE_STATUSES[type] ?? "evidence_required"
    const known = state.disputes.get(disputeId)
    state.disputes.set(disputeId, { evidence: known?.evidence ?? {}, status, paymentId, receivedOn: known?.receivedOn ?? createdOn, lastUpdate: createdOn })
    return JSON.stringify({
      id: newId("evt"),
      type,
      version: "1.0.0",
      created_on: createdOn,
      data: {
        id: disputeId,
        category: "product_service_not_received",
        status,
        amount: payment.amount,
        currency: payment.currency,
        reason_code: "13.1",
        payment_id: payment.id,
        payment_reference: payment.reference,
        evidence_required_by: "2026-12-20T00:00:00Z"
      }
    })
  }

  const event = (type: string, paymentId: string, actionId?: string) => {
    const payment = state.payments.get(paymentId)
    if (payment === undefined) throw new Error(`no payment ${paymentId}`)
    const action = actionId === undefined
      ? payment.actions.find((each) => each.type === "Authorization")
      : payment.actions.find((each) => each.id === actionId)
    const { __redirect: _, ...metadata } = payment.metadata
    return JSON.stringify({
      id: newId("evt"),
      type,
      version: "1.0.0",
      created_on: new Date().toISOString(),
      data: {
        id: payment.id,
        ...(action === undefined ? {} : { action_id: action.id }),
        amount: action?.amount ?? payment.amount,
        currency: payment.currency,
        ...(action === undefined ? {} : { response_code: action.responseCode, response_summary: action.responseSummary }),
        reference: payment.reference,
        source: { type: "card", id: payment.sourceId, scheme: "Visa", last4: "4242", issuer_country: "GB" },
        metadata,
        processed_on: new Date().toISOString()
      },
      _links: { self: { href: `${baseUrl}/workflows/events/${paymentId}` }, subject: { href: `${baseUrl}/payments/${paymentId}` } }
    })
  }

  return {
    url: baseUrl,
    ...fakeControls(server),
    processingChannelId,
    payments: state.payments,
    paymentsFor: (key) => state.counts.get(key) ?? 0,
    holdActions: (hold) => {
      state.holdActions = hold
    },
    settleActions: () => {
      for (const work of state.held.splice(0)) work()
    },
    settle: (paymentId, approved) => {
      const payment = state.payments.get(paymentId)
      if (payment === undefined || payment.status !== "Pending") throw new Error(`no pending payment ${paymentId}`)
      payment.approved = approved
      payment.status = approved ? (payment.capture ? "Captured" : "Authorized") : "Declined"
      if (approved && payment.capture) payment.captured = payment.amount
      payment.actions.push({
        id: newId("act"),
        type: "Authorization",
        amount: payment.amount,
        approved,
        responseCode: approved ? "10000" : "20051",
        responseSummary: approved ? "Approved" : "Insufficient Funds",
        reference: payment.reference,
        processedOn: new Date().toISOString()
      })
    },
    event,
    disputeEvent,
    disputes: state.disputes,
    files: state.files,
    close: server.close
  }
}
