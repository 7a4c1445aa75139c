import type { PspAnswer } from "../FakePspServer.js"
import { multipartUploads, type UploadedFile } from "../OpenApiContract.js"
import { type FakeOrder, type Money, paypalError } from "./FakeOrders.js"

/**
 * PayPal's customer disputes (Disputes v1) as the fake keeps them: opened by a test on a captured
 * order, moved by the test as PayPal would (its status, stage and outcome), read by
 * `GET /v1/customer/disputes/{id}`, answered by `provide-evidence` and `accept-claim` (multipart, as
 * the document declares them: the request's JSON in a part named `input`, files beside it).
 */
export interface FakeDispute {
  readonly id: string
  readonly order: FakeOrder
  readonly captureId: string
  amount: Money
  reason: string
  status: string
  stage: string
  outcome: string | undefined
  dueDate: string | undefined
  readonly createTime: string
  updateTime: string
  /** The evidences provided, as PayPal's `evidence` objects, and the files sent with them (`evidence-file` parts), bytes as received. */
  readonly evidences: Array<Record<string, unknown>>
  readonly files: Array<FakePayPalEvidenceFile>
  /** What `accept-claim` was sent, once accepted. */
  acceptance: Record<string, unknown> | undefined
}

/** A file sent as an `evidence-file` part: its name, media type and bytes as received. */
export interface FakePayPalEvidenceFile {
  readonly filename: string
  readonly type: string | undefined
  readonly bytes: Uint8Array
}

/** What a test may set when opening or moving a dispute. */
export interface DisputeChanges {
  readonly status?: string
  readonly stage?: string
  readonly outcome?: string
  readonly reason?: string
  readonly amount?: Money
  readonly dueDate?: string
  /** When PayPal says it changed; now unless given. */
  readonly at?: string
}

/** A dispute as `GET /v1/customer/disputes/{id}` and the `CUSTOMER.DISPUTE.*` webhooks show it. */
export const disputeJson = (dispute: FakeDispute, baseUrl: string) => ({
  dispute_id: dispute.id,
  create_time: dispute.createTime,
  update_time: dispute.updateTime,
  disputed_transactions: [{
    seller_transaction_id: dispute.captureId,
    create_time: dispute.createTime,
    transaction_status: "COMPLETED",
    gross_amount: dispute.order.amount,
    ...(dispute.order.customId === undefined ? {} : { custom: dispute.order.customId })
  }],
  reason: dispute.reason,
  status: dispute.status,
  dispute_amount: dispute.amount,
  ...(dispute.outcome === undefined ? {} : { dispute_outcome: { outcome_code: dispute.outcome, amount_refunded: dispute.amount } }),
  dispute_life_cycle_stage: dispute.stage,
  dispute_channel: "INTERNAL",
  ...(dispute.evidences.length === 0 ? {} : { evidences: dispute.evidences }),
  ...(dispute.dueDate === undefined ? {} : { seller_response_due_date: dispute.dueDate }),
  links: [{ href: `${baseUrl}/v1/customer/disputes/${dispute.id}`, rel: "self", method: "GET" }]
})

const subsequent = (dispute: FakeDispute, baseUrl: string) =>
  [200, {
    links: [{ href: `${baseUrl}/v1/customer/disputes/${dispute.id}`, rel: "self", method: "GET" }]
  }] as PspAnswer

/** PayPal takes JPG, GIF, PNG and PDF documents. */
const DOCUMENT_TYPES = new Set(["image/jpeg", "image/gif", "image/png", "application/pdf"])

/** The JSON of the part named `input` (as `application/json`) and the `evidence-file` parts, if the body is multipart and has them so. */
const inputOf = (bytes: Uint8Array): { readonly input: any; readonly files: ReadonlyArray<UploadedFile> } | undefined => {
  const parts = multipartUploads(bytes)
  const input = parts?.find((part) => part.name === "input")
  if (parts === undefined || input === undefined || input.type !== "application/json") return undefined
  if (parts.some((part) => part !== input && (part.name !== "evidence-file" || part.filename === undefined))) return undefined
  try {
    return { input: JSON.parse(new TextDecoder().decode(input.bytes)), files: parts.filter((part) => part !== input) }
  } catch {
    return undefined
  }
}

/**
 * The evidences' documents must each name one `evidence-file` part, and each part be one of the
 * types PayPal takes (the fake's issue name; PayPal's own are not in its document).
 */
const documentsRefusal = (evidences: ReadonlyArray<any>, files: ReadonlyArray<UploadedFile>): PspAnswer | undefined => {
  const named = evidences.flatMap((evidence) => Array.isArray(evidence?.documents) ? evidence.documents.map((document: any) => document?.name) : [])
  const sent = files.map((file) => file.filename)
  const unmatched = named.find((name) => !sent.includes(name)) ?? sent.find((name) => !named.includes(name))
  if (unmatched !== undefined) return paypalError(400, "INVALID_EVIDENCE_FILE", `The document ${unmatched} is not both named and sent.`)
  const refused = files.find((file) => !DOCUMENT_TYPES.has(file.type ?? ""))
  return refused === undefined ? undefined : paypalError(422, "INVALID_EVIDENCE_FILE", `The document ${refused.filename} is not of a type PayPal takes.`)
}

/** Only a dispute waiting for the merchant, before its due date, takes evidence or acceptance. */
const refusal = (dispute: FakeDispute, now: number): PspAnswer | undefined =>
  dispute.status !== "WAITING_FOR_SELLER_RESPONSE" && dispute.status !== "OPEN"
    ? paypalError(422, "DISPUTE_NOT_IN_VALID_STATE", "The dispute is not waiting for the seller's response.")
    : dispute.dueDate !== undefined && Date.parse(dispute.dueDate) < now
    ? paypalError(422, "RESPONSE_DUE_DATE_PASSED", "The seller response due date has passed.")
    : undefined

/** One request to `/v1/customer/disputes…`. */
export const handleDisputes = (
  disputes: Map<string, FakeDispute>,
  baseUrl: string,
  method: string,
  parts: ReadonlyArray<string>,
  body: Uint8Array
): PspAnswer => {
  const dispute = disputes.get(parts[3] ?? "")
  if (dispute === undefined) return paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  const action = parts[4]
  if (action === undefined && method === "GET") return [200, disputeJson(dispute, baseUrl)]
  if (method !== "POST" || (action !== "provide-evidence" && action !== "accept-claim")) {
    return paypalError(404, "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
  }
  const given = inputOf(body)
  if (given === undefined) return paypalError(400, "INVALID_REQUEST_BODY", "The request body is not multipart with a JSON input part.")
  const refused = refusal(dispute, Date.now())
  if (refused !== undefined) return refused
  if (action === "provide-evidence") {
    const evidences = given.input?.evidences
    if (!Array.isArray(evidences) || evidences.length === 0) return paypalError(400, "MISSING_REQUIRED_PARAMETER", "evidences")
    const documents = documentsRefusal(evidences, given.files)
    if (documents !== undefined) return documents
    dispute.evidences.push(...evidences.map((evidence: Record<string, unknown>) => ({ ...evidence, source: "SUBMITTED_BY_SELLER" })))
    dispute.files.push(...given.files.map((file) => ({ filename: file.filename!, type: file.type, bytes: file.bytes })))
    dispute.status = "UNDER_REVIEW"
  } else {
    if (typeof given.input?.note !== "string" || given.input.note === "") return paypalError(400, "MISSING_REQUIRED_PARAMETER", "note")
    dispute.acceptance = given.input
    dispute.status = "RESOLVED"
    dispute.outcome = "ACCEPTED"
  }
  dispute.updateTime = new Date().toISOString()
  return subsequent(dispute, baseUrl)
}

/** A test's control: a dispute opened on the order's capture, or moved as PayPal would move it. */
export const makeFakeDisputes = (orders: Map<string, FakeOrder>, disputes: Map<string, FakeDispute>) => {
  let next = 1
  const open = (orderId: string, changes: DisputeChanges = {}): FakeDispute => {
    const order = orders.get(orderId)
    const capture = order?.captures[0]
    if (order === undefined || capture === undefined) throw new Error(`order ${orderId} has no capture to dispute`)
    const at = changes.at ?? new Date().toISOString()
    const dispute: FakeDispute = {
      id: `PP-D-${String(next++).padStart(5, "0")}`,
      order,
      captureId: capture.id,
      amount: changes.amount ?? capture.amount,
      reason: changes.reason ?? "MERCHANDISE_OR_SERVICE_NOT_RECEIVED",
      status: changes.status ?? "WAITING_FOR_SELLER_RESPONSE",
      stage: changes.stage ?? "CHARGEBACK",
      outcome: changes.outcome,
      dueDate: changes.dueDate ?? new Date(Date.parse(at) + 10 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
      createTime: at,
      updateTime: at,
      evidences: [],
      files: [],
      acceptance: undefined
    }
    disputes.set(dispute.id, dispute)
    return dispute
  }
  const move = (id: string, changes: DisputeChanges): FakeDispute => {
    const dispute = disputes.get(id)
    if (dispute === undefined) throw new Error(`no dispute ${id}`)
    if (changes.status !== undefined) dispute.status = changes.status
    if (changes.stage !== undefined) dispute.stage = changes.stage
    if (changes.outcome !== undefined) dispute.outcome = changes.outcome
    if (changes.reason !== undefined) dispute.reason = changes.reason
    if (changes.amount !== undefined) dispute.amount = changes.amount
    if (changes.dueDate !== undefined) dispute.dueDate = changes.dueDate
    dispute.updateTime = changes.at ?? new Date().toISOString()
    return dispute
  }
  return { open, move }
}

/** The fake's disputes, the route serving them, and the tests' controls over them (as `FakePayPal` names them). */
export const fakeDisputes = (orders: Map<string, FakeOrder>, baseUrl: () => string) => {
  const disputes = new Map<string, FakeDispute>()
  const { move, open } = makeFakeDisputes(orders, disputes)
  return {
    handle: (method: string, pathname: string, body: Uint8Array) =>
      handleDisputes(disputes, baseUrl(), method, pathname.split("/").filter((part) => part !== "").map(decodeURIComponent), body),
    controls: {
      disputes,
      openDispute: open,
      moveDispute: move,
      disputeResource: (id: string): unknown => {
        const dispute = disputes.get(id)
        if (dispute === undefined) throw new Error(`no dispute ${id}`)
        return disputeJson(dispute, baseUrl())
      }
    }
  }
}
