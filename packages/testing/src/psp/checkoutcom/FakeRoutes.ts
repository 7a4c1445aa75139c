import type { PspAnswer } from "../FakePspServer.js"
import { newSchemeTransactionId } from "../SchemeTransactionIds.js"
import { cardSource, type CheckoutComPayment, type CheckoutComState, DECLINES, newId, OUTCOMES, recordAction, tokenName, validationError } from "./FakeState.js"

const THOUSANDTHS = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "))

const links = (state: CheckoutComState, payment: CheckoutComPayment) => ({
  self: { href: `${state.baseUrl()}/payments/${payment.id}` },
  actions: { href: `${state.baseUrl()}/payments/${payment.id}/actions` },
  ...(payment.status === "Pending" && payment.metadata.__redirect === true
    ? { redirect: { href: `${state.baseUrl()}/fake/3ds/${payment.id}` } }
    : {})
})

/** `GET /payments/{id}`, as the document's `PaymentDetails`. */
const details = (state: CheckoutComState, payment: CheckoutComPayment) => {
  const { __redirect: _, ...metadata } = payment.metadata
  return {
    id: payment.id,
    requested_on: payment.requestedOn,
    ...(payment.approved || payment.status !== "Pending" ? { source: cardSource(payment.sourceId) } : {}),
    amount: payment.amount,
    currency: payment.currency,
    payment_type: "Regular",
    reference: payment.reference,
    approved: payment.approved,
    status: payment.status,
    ...(payment.approved ? { scheme_id: payment.schemeId } : {}),
    // The document's balances require an `id` (the payment's, here).
    balances: {
      id: payment.id,
      total_authorized: payment.approved ? payment.amount : 0,
      total_voided: payment.voided,
      available_to_void: payment.status === "Authorized" ? payment.amount : 0,
      total_captured: payment.captured,
      available_to_capture: payment.status === "Authorized" ? payment.amount : 0,
      total_refunded: payment.refunded,
      available_to_refund: payment.captured - payment.refunded
    },
    metadata,
    _links: links(state, payment)
  }
}

/** The outcome of Checkout.com's test card numbers sent raw; an unknown number is approved. */
const cardNumberOutcome = (number: unknown) => number === "4000000000000002" ? "declined" : typeof number === "string" ? "approved" : undefined

/** `POST /payments`: the token's name decides; 201 processed, 202 for 3DS and for news later. */
const createPayment = (state: CheckoutComState, body: any, key: string | undefined): PspAnswer => {
  if (body?.processing_channel_id !== state.processingChannelId) return validationError(422, "processing_channel_id_invalid")
  const token = body.source?.type === "token" ? body.source.token : body.source?.type === "id" ? body.source.id : undefined
  // A raw card (`type: "card"`, from a PCI-compliant sender): Checkout.com's test card numbers decide.
  const name = body.source?.type === "card" ? cardNumberOutcome(body.source.number) : tokenName(token)
  if (name === undefined || !OUTCOMES.has(name)) return validationError(422, body.source?.type === "id" ? "source_id_invalid" : "token_invalid")
  const amount = body.amount
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > 999_999_999) return validationError(422, "amount_invalid")
  if (THOUSANDTHS.has(body.currency) && amount % 10 !== 0) return validationError(422, "amount_invalid")
  const decline = DECLINES[name]
  const waits = name === "threeds" || name === "pending"
  const payment: CheckoutComPayment = {
    id: newId("pay"),
    reference: body.reference,
    amount,
    currency: body.currency,
    capture: body.capture !== false,
    status: waits ? "Pending" : decline !== undefined ? "Declined" : body.capture !== false ? "Captured" : "Authorized",
    approved: !waits && decline === undefined,
    metadata: { ...body.metadata, ...(name === "threeds" ? { __redirect: true } : {}) },
    successUrl: body.success_url,
    failureUrl: body.failure_url,
    requestedOn: new Date().toISOString(),
    sourceId: body.source.type === "id" ? body.source.id : newId("src"),
    actions: [],
    captured: 0,
    refunded: 0,
    voided: 0,
    schemeId: newSchemeTransactionId()
  }
  state.payments.set(payment.id, payment)
  if (key !== undefined) state.counts.set(key, (state.counts.get(key) ?? 0) + 1)
  if (waits) {
    return [202, { id: payment.id, status: "Pending", reference: payment.reference, _links: links(state, payment) }]
  }
  const authorization = recordAction(payment, "Authorization", amount, payment.reference, decline)
  if (payment.status === "Captured") payment.captured = amount
  return [201, {
    id: payment.id,
    action_id: authorization.id,
    amount,
    currency: payment.currency,
    approved: payment.approved,
    // Checkout.com answers `Authorized` and captures a moment later when `capture` is true.
    status: decline === undefined ? "Authorized" : "Declined",
    ...(decline === undefined ? { auth_code: "643381" } : {}),
    response_code: authorization.responseCode,
    response_summary: authorization.responseSummary,
    source: cardSource(payment.sourceId),
    ...(payment.approved ? { scheme_id: payment.schemeId } : {}),
    balances: { id: payment.id, total_authorized: payment.approved ? amount : 0, total_captured: 0, total_refunded: 0, total_voided: 0 },
    processed_on: authorization.processedOn,
    reference: payment.reference,
    _links: links(state, payment)
  }]
}

/** Carries out an accepted action now, or later when the fake holds actions back. */
const carryOut = (state: CheckoutComState, work: () => void) => {
  if (state.holdActions) state.held.push(work)
  else work()
}

/** `POST /payments/{id}/captures|voids|refunds`: 404 for no payment, 403 when the state forbids it, else 202. */
const paymentAction = (state: CheckoutComState, payment: CheckoutComPayment, kind: string, body: any): PspAnswer => {
  const accepted = (actionId: string) =>
    [202, {
      action_id: actionId,
      ...(body?.reference === undefined ? {} : { reference: body.reference }),
      _links: { payment: { href: `${state.baseUrl()}/payments/${payment.id}` } }
    }] as PspAnswer
  const actionId = newId("act")
  if (kind === "captures") {
    if (payment.status !== "Authorized") return [403, undefined]
    const amount = body?.amount ?? payment.amount
    if (amount > payment.amount) return validationError(422, "amount_invalid")
    carryOut(state, () => {
      recordAction(payment, "Capture", amount, body?.reference, undefined, actionId)
      payment.captured = amount
      payment.status = amount === payment.amount ? "Captured" : "Partially Captured"
    })
    return accepted(actionId)
  }
  if (kind === "voids") {
    if (payment.status !== "Authorized") return [403, undefined]
    carryOut(state, () => {
      recordAction(payment, "Void", payment.amount, body?.reference, undefined, actionId)
      payment.voided = payment.amount
      payment.status = "Voided"
    })
    return accepted(actionId)
  }
  const available = payment.captured - payment.refunded
  if (available <= 0) return [403, undefined]
  const amount = body?.amount ?? available
  if (amount > available) return validationError(422, "refund_amount_exceeds_balance")
  payment.refunded += amount
  carryOut(state, () => {
    recordAction(payment, "Refund", amount, body?.reference, undefined, actionId)
    payment.status = payment.refunded === payment.captured ? "Refunded" : "Partially Refunded"
  })
  return accepted(actionId)
}

/**
 * A dispute's evidence (`PUT /disputes/{id}/evidence`), its submission (`POST` there) and its
 * acceptance (`POST /disputes/{id}/accept`): each 204, and only while evidence is required.
 */
const disputeAction = (state: CheckoutComState, method: string, path: string, body: any): PspAnswer | undefined => {
  const match = /^\/disputes\/([^/]+)\/(evidence|accept)$/.exec(path)
  if (match === null) return undefined
  const dispute = state.disputes.get(match[1]!)
  if (dispute === undefined) return [404, undefined]
  // The NAS document declares this 422 without a body.
  if (dispute.status !== "evidence_required") return [422, undefined]
  dispute.lastUpdate = new Date().toISOString().replace(/\.\d+Z$/, "Z")
  if (match[2] === "accept" && method === "POST") dispute.status = "accepted"
  else if (method === "PUT") {
    // A `*_file` field names a file uploaded with `POST /files`; another id is a validation error.
    const unknown = Object.entries(body ?? {}).find(([field, id]) => field.endsWith("_file") && !state.files.has(String(id)))
    if (unknown !== undefined) return validationError(422, `${unknown[0]}_invalid`)
    dispute.evidence = { ...dispute.evidence, ...body }
  } else if (method === "POST") dispute.status = "evidence_under_review"
  else return [404, undefined]
  return [204, undefined]
}

/** `GET /disputes/{id}`: the dispute as Checkout.com's `Dispute` shows it, with its payment. */
const disputeDetails = (state: CheckoutComState, path: string): PspAnswer | undefined => {
  const match = /^\/disputes\/([^/]+)$/.exec(path)
  if (match === null) return undefined
  const dispute = state.disputes.get(match[1]!)
  const payment = dispute === undefined ? undefined : state.payments.get(dispute.paymentId)
  if (dispute === undefined || payment === undefined) return [404, undefined]
  return [200, {
    id: match[1],
    category: "product_service_not_received",
    amount: payment.amount,
    currency: payment.currency,
    reason_code: "13.1",
    status: dispute.status,
    evidence_required_by: "2026-12-20T00:00:00Z",
    received_on: dispute.receivedOn,
    last_update: dispute.lastUpdate,
    payment: { id: payment.id, amount: payment.amount, currency: payment.currency, processing_channel_id: state.processingChannelId }
  }]
}

/** One call to the fake's API. */
export const handleCheckoutCom = (state: CheckoutComState, method: string, path: string, body: any, key: string | undefined): PspAnswer => {
  if (method === "POST" && path === "/payments") return createPayment(state, body, key)
  const disputed = method === "GET" ? disputeDetails(state, path) : disputeAction(state, method, path, body)
  if (disputed !== undefined) return disputed
  const match = /^\/payments\/([^/]+)(?:\/(actions|captures|voids|refunds))?$/.exec(path)
  const payment = match === null ? undefined : state.payments.get(match[1]!)
  if (match === null || payment === undefined) return [404, undefined]
  if (method === "GET" && match[2] === undefined) return [200, details(state, payment)]
  if (method === "GET" && match[2] === "actions") {
    return [
      200,
      payment.actions.map((action) => ({
        id: action.id,
        type: action.type,
        processed_on: action.processedOn,
        amount: action.amount,
        approved: action.approved,
        response_code: action.responseCode,
        response_summary: action.responseSummary,
        ...(action.reference === undefined ? {} : { reference: action.reference })
      })).reverse()
    ]
  }
  if (method === "POST" && match[2] !== undefined && match[2] !== "actions") return paymentAction(state, payment, match[2], body)
  return [404, undefined]
}
