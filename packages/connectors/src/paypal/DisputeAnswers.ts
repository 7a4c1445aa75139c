import { DisputeActionOutcome, type DisputeEvidence, type DisputeOperations, type EvidenceFileContents, type EvidenceFileField } from "@orchestrator/core"
import { Effect } from "effect"
import { boundaryFor, encodeMultipart, evidenceFilePart, evidenceFilesRefused, type MultipartField } from "../transport/MultipartForm.js"
import { path, type PayPalCall, read } from "./Api.js"
import { factOfPayPalDispute, PayPalDispute } from "./Disputes.js"
import { failureOf } from "./Errors.js"

/** PayPal takes at most 2000 characters in an evidence's `notes`. */
const MAX_NOTES = 2000

/** Carriers PayPal names in its `carrier_name` enum that merchants commonly write; any other is `OTHER` with its name beside. */
const CARRIERS = new Set([
  "UPS",
  "USPS",
  "FEDEX",
  "DHL",
  "ROYAL_MAIL",
  "PARCELFORCE",
  "DPD",
  "GLS",
  "TNT",
  "HERMES",
  "POSTNL",
  "LA_POSTE",
  "COLIS",
  "CHRONOPOST"
])

const notes = (...parts: ReadonlyArray<string | undefined>) => {
  const text = parts.filter((part) => part !== undefined && part !== "").join("\n")
  return text === "" ? undefined : text.slice(0, MAX_NOTES)
}

const trackingOf = (carrier: string | undefined, trackingNumber: string) => {
  const name = (carrier ?? "").toUpperCase().replace(/[^0-9A-Z]+/g, "_").replace(/^_|_$/g, "")
  return CARRIERS.has(name)
    ? { carrier_name: name, tracking_number: trackingNumber }
    : { carrier_name: "OTHER", carrier_name_other: carrier === undefined || carrier === "" ? "Unknown" : carrier, tracking_number: trackingNumber }
}

/** The PayPal evidence type each kind of our files goes under (PROOF_OF_FULFILLMENT takes tracking, not documents). */
const PAYPAL_FILE_TYPES: { readonly [Field in EvidenceFileField]: string } = {
  receipt: "PROOF_OF_RECEIPT_COPY",
  shipping_documentation: "ADDITIONAL_PROOF_OF_SHIPMENT",
  refund_policy: "RETURN_POLICY",
  cancellation_policy: "RETURN_POLICY",
  customer_communication: "OTHER",
  uncategorized_file: "OTHER"
}

/**
 * A file's name at PayPal: its id and type, which PayPal's document name pattern
 * (`^[A-Za-z0-9-_,\s]+[.]{1}[A-Za-z]+$`) always takes and no two files share (a merchant's own file
 * name may hold any character).
 */
export const paypalDocumentName = ({ file }: EvidenceFileContents) => `${file.id.replace(/[^A-Za-z0-9_-]/g, "_")}.${file.type}`

/**
 * Our evidence as PayPal's `evidences`: the shipment as PROOF_OF_FULFILLMENT (its tracking), the
 * product as ITEM_DESCRIPTION, the receipt as PROOF_OF_RECEIPT_COPY, the policies as RETURN_POLICY,
 * and the rest as OTHER; each file named in the `documents` of the evidence of its kind
 * (`PAYPAL_FILE_TYPES`). Evidence with nothing in it still answers the dispute (PayPal needs one).
 */
export const paypalEvidencesOf = (evidence: DisputeEvidence, files: ReadonlyArray<EvidenceFileContents> = []): ReadonlyArray<Record<string, unknown>> => {
  const typed: Array<readonly [string, string | undefined]> = [
    ["ITEM_DESCRIPTION", notes(evidence.product_description)],
    ["PROOF_OF_RECEIPT_COPY", notes(evidence.receipt)],
    ["RETURN_POLICY", notes(evidence.refund_policy, evidence.cancellation_policy)],
    [
      "OTHER",
      notes(
        evidence.customer_name === undefined ? undefined : `Customer: ${evidence.customer_name}`,
        evidence.customer_email === undefined ? undefined : `Email: ${evidence.customer_email}`,
        evidence.customer_communication,
        evidence.uncategorized_text
      )
    ]
  ]
  const evidences: Array<Record<string, unknown>> = typed.flatMap(([evidence_type, text]) => text === undefined ? [] : [{ evidence_type, notes: text }])
  for (const file of files) {
    const evidence_type = PAYPAL_FILE_TYPES[file.field]
    const index = evidences.findIndex((each) => each.evidence_type === evidence_type)
    const documents = [...((evidences[index]?.documents as ReadonlyArray<unknown> | undefined) ?? []), { name: paypalDocumentName(file) }]
    if (index < 0) evidences.push({ evidence_type, documents })
    else evidences[index] = { ...evidences[index], documents }
  }
  if (evidence.shipping_tracking_number !== undefined) {
    evidences.unshift({
      evidence_type: "PROOF_OF_FULFILLMENT",
      evidence_info: { tracking_info: [trackingOf(evidence.shipping_carrier, evidence.shipping_tracking_number)] },
      ...(evidence.shipping_date === undefined ? {} : { notes: notes(`Shipped: ${evidence.shipping_date}`) })
    })
  }
  return evidences.length === 0 ? [{ evidence_type: "OTHER", notes: "The merchant contests this dispute." }] : evidences
}

/**
 * A dispute action's multipart/form-data body, as PayPal takes them: the request's JSON in the part
 * `input`, each file beside it as a part `evidence-file` under its document name. The boundary is
 * the same for the same dispute and files (a repeat sends the same bytes).
 */
export const multipartInput = (disputeId: string, input: unknown, files: ReadonlyArray<EvidenceFileContents> = []) => {
  const parts: Array<MultipartField> = [
    { name: "input", type: "application/json", value: JSON.stringify(input) },
    ...files.map((file) => ({ ...evidenceFilePart("evidence-file", file), filename: paypalDocumentName(file) }))
  ]
  const { body, contentType } = encodeMultipart(parts, boundaryFor(disputeId, files.map((file) => file.contents)))
  return { rawBody: body, contentType }
}

/** PayPal's issues that say a document was not taken (its type, size or name). */
const FILE_ISSUE = /FILE|DOCUMENT/

/** One dispute action: `Done` on a 2xx, else PayPal's refusal in our words (its own kept apart). */
const answered = (
  call: PayPalCall,
  what: string,
  disputeId: string,
  action: string,
  input: unknown,
  files: ReadonlyArray<EvidenceFileContents> = []
) =>
  Effect.map(
    call(what, { method: "POST", path: `/v1/customer/disputes/${path(disputeId)}/${action}`, ...multipartInput(disputeId, input, files) }),
    (answer) => {
      if (answer._tag === "Ok") return DisputeActionOutcome.Done()
      const { code, message, providerMessage } = failureOf(answer.error, answer.status)
      if (answer.status === 404) {
        return DisputeActionOutcome.Refused({ code: "dispute_not_found", message: "The provider knows no such dispute on this connection.", providerMessage })
      }
      return files.length > 0 && answer.error.details?.some((detail) => FILE_ISSUE.test(detail.issue)) === true
        ? evidenceFilesRefused(files, providerMessage)
        : DisputeActionOutcome.Refused({ code, message, providerMessage })
    }
  )

/**
 * Evidence by `provide-evidence` with its files (its submission: PayPal reviews what it receives), acceptance by
 * `accept-claim`, and the dispute read by `GET /v1/customer/disputes/{id}` (dated by its `update_time`).
 */
export const paypalDisputes = (call: PayPalCall): DisputeOperations => ({
  takesFiles: true,
  submitEvidence: ({ evidence, files = [], pspDisputeId }) =>
    answered(call, "provide dispute evidence", pspDisputeId, "provide-evidence", { evidences: paypalEvidencesOf(evidence, files) }, files),
  accept: ({ pspDisputeId }) => answered(call, "accept dispute claim", pspDisputeId, "accept-claim", { note: "The merchant accepts the claim." }),
  read: ({ pspDisputeId }) =>
    Effect.gen(function*() {
      const answer = yield* call("show dispute", { method: "GET", path: `/v1/customer/disputes/${path(pspDisputeId)}` })
      if (answer._tag === "Failed") return undefined
      return factOfPayPalDispute(yield* read(PayPalDispute, "show dispute")(answer.json))
    })
})
