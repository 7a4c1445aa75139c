import { DisputeActionOutcome, type DisputeEvidence, type DisputeOperations } from "@orchestrator/core"
import { Effect } from "effect"
import { type CheckoutComCall, read } from "./Api.js"
import { CheckoutComDispute, factOfCheckoutComDispute } from "./Disputes.js"
import { refusalOfError } from "./Refusals.js"

/** Checkout.com takes at most 500 characters in each evidence text. */
const MAX_TEXT = 500

const joined = (...parts: ReadonlyArray<string | undefined>) => {
  const text = parts.filter((part) => part !== undefined && part !== "").join("\n")
  return text === "" ? undefined : text.slice(0, MAX_TEXT)
}

/** Our evidence in Checkout.com's texts (`ProvideEvidenceRequest`); files are not sent (no file upload yet). */
export const checkoutComEvidenceOf = (evidence: DisputeEvidence) => {
  const texts = {
    proof_of_delivery_or_service_text: joined(
      evidence.product_description,
      evidence.shipping_carrier === undefined ? undefined : `Carrier: ${evidence.shipping_carrier}`,
      evidence.shipping_tracking_number === undefined ? undefined : `Tracking: ${evidence.shipping_tracking_number}`
    ),
    proof_of_delivery_or_service_date_text: joined(evidence.shipping_date),
    invoice_or_receipt_text: joined(evidence.receipt),
    customer_communication_text: joined(evidence.customer_communication),
    refund_or_cancellation_policy_text: joined(evidence.refund_policy, evidence.cancellation_policy),
    additional_evidence_text: joined(
      evidence.customer_name === undefined ? undefined : `Customer: ${evidence.customer_name}`,
      evidence.customer_email === undefined ? undefined : `Email: ${evidence.customer_email}`,
      evidence.uncategorized_text
    )
  }
  return Object.fromEntries(Object.entries(texts).filter(([, text]) => text !== undefined))
}

const disputePath = (id: string) => `/disputes/${encodeURIComponent(id)}`

/** One dispute call: `Done` on a 2xx, else Checkout.com's refusal in our words. */
const answered = (call: CheckoutComCall, what: string, request: Parameters<CheckoutComCall>[1]) =>
  Effect.map(call(what, request), (answer) => {
    if (answer._tag === "Ok") return DisputeActionOutcome.Done()
    const { code, message, providerMessage } = refusalOfError(answer.status, answer.error)
    return DisputeActionOutcome.Refused({ code, message, providerMessage })
  })

/** Evidence provided (`PUT …/evidence`) then submitted (`POST …/evidence`); accepting is `POST …/accept`; a read is `GET /disputes/{id}`. */
export const checkoutComDisputes = (call: CheckoutComCall): DisputeOperations => ({
  submitEvidence: ({ evidence, pspDisputeId }) =>
    Effect.gen(function*() {
      const provided = yield* answered(call, "provide dispute evidence", {
        method: "PUT",
        path: `${disputePath(pspDisputeId)}/evidence`,
        body: checkoutComEvidenceOf(evidence)
      })
      if (provided._tag === "Refused") return provided
      return yield* answered(call, "submit dispute evidence", { method: "POST", path: `${disputePath(pspDisputeId)}/evidence` })
    }),
  accept: ({ pspDisputeId }) => answered(call, "accept dispute", { method: "POST", path: `${disputePath(pspDisputeId)}/accept` }),
  read: ({ atMillis, pspDisputeId, pspPaymentId }) =>
    Effect.gen(function*() {
      const answer = yield* call("retrieve dispute", { method: "GET", path: disputePath(pspDisputeId) })
      if (answer._tag === "Failed") return undefined
      return factOfCheckoutComDispute(yield* read(CheckoutComDispute, "retrieve dispute")(answer.json), pspPaymentId, atMillis)
    })
})
