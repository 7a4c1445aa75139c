import { DisputeActionOutcome, type DisputeEvidence, type DisputeOperations } from "@orchestrator/core"
import { Effect } from "effect"
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

/**
 * Our evidence as PayPal's `evidences`: the shipment as PROOF_OF_FULFILLMENT (its tracking), the
 * product as ITEM_DESCRIPTION, the receipt as PROOF_OF_RECEIPT_COPY, the policies as RETURN_POLICY,
 * and the rest as OTHER. Evidence with nothing in it still answers the dispute (PayPal needs one).
 */
export const paypalEvidencesOf = (evidence: DisputeEvidence): ReadonlyArray<Record<string, unknown>> => {
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
  if (evidence.shipping_tracking_number !== undefined) {
    evidences.unshift({
      evidence_type: "PROOF_OF_FULFILLMENT",
      evidence_info: { tracking_info: [trackingOf(evidence.shipping_carrier, evidence.shipping_tracking_number)] },
      ...(evidence.shipping_date === undefined ? {} : { notes: notes(`Shipped: ${evidence.shipping_date}`) })
    })
  }
  return evidences.length === 0 ? [{ evidence_type: "OTHER", notes: "The merchant contests this dispute." }] : evidences
}

/** A multipart/form-data body of one part, `input`, holding the request's JSON (as PayPal's dispute actions take it). */
export const multipartInput = (input: unknown) => {
  const boundary = `----orchestrator${globalThis.crypto.randomUUID().replace(/-/g, "")}`
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="input"\r\nContent-Type: application/json\r\n\r\n${
    JSON.stringify(input)
  }\r\n--${boundary}--\r\n`
  return { rawBody: body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** One dispute action: `Done` on a 2xx, else PayPal's refusal in our words (its own kept apart). */
const answered = (call: PayPalCall, what: string, disputeId: string, action: string, input: unknown) =>
  Effect.map(
    call(what, { method: "POST", path: `/v1/customer/disputes/${path(disputeId)}/${action}`, ...multipartInput(input) }),
    (answer) => {
      if (answer._tag === "Ok") return DisputeActionOutcome.Done()
      const { code, message, providerMessage } = failureOf(answer.error, answer.status)
      return answer.status === 404
        ? DisputeActionOutcome.Refused({ code: "dispute_not_found", message: "The provider knows no such dispute on this connection.", providerMessage })
        : DisputeActionOutcome.Refused({ code, message, providerMessage })
    }
  )

/**
 * Evidence by `provide-evidence` (its submission: PayPal reviews what it receives), acceptance by
 * `accept-claim`, and the dispute read by `GET /v1/customer/disputes/{id}` (dated by its `update_time`).
 */
export const paypalDisputes = (call: PayPalCall): DisputeOperations => ({
  submitEvidence: ({ evidence, pspDisputeId }) =>
    answered(call, "provide dispute evidence", pspDisputeId, "provide-evidence", { evidences: paypalEvidencesOf(evidence) }),
  accept: ({ pspDisputeId }) => answered(call, "accept dispute claim", pspDisputeId, "accept-claim", { note: "The merchant accepts the claim." }),
  read: ({ pspDisputeId }) =>
    Effect.gen(function*() {
      const answer = yield* call("show dispute", { method: "GET", path: `/v1/customer/disputes/${path(pspDisputeId)}` })
      if (answer._tag === "Failed") return undefined
      return factOfPayPalDispute(yield* read(PayPalDispute, "show dispute")(answer.json))
    })
})
