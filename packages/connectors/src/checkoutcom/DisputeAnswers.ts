import { DisputeActionOutcome, type DisputeEvidence, type DisputeOperations, type EvidenceFileContents, type EvidenceFileField } from "@orchestrator/core"
import { Effect, Either, Schema } from "effect"
import { boundaryFor, encodeMultipart, evidenceFilePart, evidenceFileRefused } from "../transport/MultipartForm.js"
import { type CheckoutComCall, read } from "./Api.js"
import { CheckoutComDispute, factOfCheckoutComDispute } from "./Disputes.js"
import { refusalOfError } from "./Refusals.js"

/** Checkout.com takes at most 500 characters in each evidence text. */
const MAX_TEXT = 500

const joined = (...parts: ReadonlyArray<string | undefined>) => {
  const text = parts.filter((part) => part !== undefined && part !== "").join("\n")
  return text === "" ? undefined : text.slice(0, MAX_TEXT)
}

/** Our evidence in Checkout.com's texts (`ProvideEvidenceRequest`); its files go in the `*_file` fields (`checkoutComFileFieldsOf`). */
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

/**
 * Where each kind of our evidence files goes among Checkout.com's `*_file` fields (one file each): the
 * first field still free. Both policies share Checkout.com's one policy field, the second (and any
 * other file) goes to `additional_evidence_file`.
 */
const CHECKOUT_COM_FILE_FIELDS: { readonly [Field in EvidenceFileField]: ReadonlyArray<string> } = {
  receipt: ["invoice_or_receipt_file", "additional_evidence_file"],
  customer_communication: ["customer_communication_file", "additional_evidence_file"],
  shipping_documentation: ["proof_of_delivery_or_service_file", "additional_evidence_file"],
  refund_policy: ["refund_or_cancellation_policy_file", "additional_evidence_file"],
  cancellation_policy: ["refund_or_cancellation_policy_file", "additional_evidence_file"],
  uncategorized_file: ["additional_evidence_file"]
}

/** Each file's Checkout.com field, or `undefined` when more files share a field than Checkout.com has room for. */
export const checkoutComFileFieldsOf = (files: ReadonlyArray<EvidenceFileContents>) => {
  const taken = new Set<string>()
  const placed: Array<{ readonly file: EvidenceFileContents; readonly field: string }> = []
  // Files with a field of their own first, so that the shared one is left to those that need it.
  for (const file of [...files].sort((a, b) => CHECKOUT_COM_FILE_FIELDS[b.field].length - CHECKOUT_COM_FILE_FIELDS[a.field].length)) {
    const field = CHECKOUT_COM_FILE_FIELDS[file.field].find((each) => !taken.has(each))
    if (field === undefined) return undefined
    taken.add(field)
    placed.push({ file, field })
  }
  return placed
}

/** Checkout.com's answer to an upload (`FileUploadResponse`), as far as we read it. */
const UploadedFile = Schema.Struct({ id: Schema.String })

/**
 * Uploads one evidence file (`POST /files`, multipart, `purpose=dispute_evidence`, the file as the part
 * `file`): its Checkout.com id, or the refusal in our words, naming the file.
 */
const uploadFile = (call: CheckoutComCall, evidenceFile: EvidenceFileContents) =>
  Effect.gen(function*() {
    const what = "upload dispute evidence file"
    const answer = yield* call(what, {
      method: "POST",
      path: "/files",
      upload: encodeMultipart(
        [{ name: "purpose", value: "dispute_evidence" }, evidenceFilePart("file", evidenceFile)],
        boundaryFor(evidenceFile.file.id, [evidenceFile.contents])
      )
    })
    if (answer._tag === "Ok") return Either.right((yield* read(UploadedFile, what)(answer.json)).id)
    const { providerMessage } = refusalOfError(answer.status, answer.error)
    return Either.left(evidenceFileRefused(evidenceFile, providerMessage))
  })

/** More files than Checkout.com's fields hold: said before anything is sent. */
const TOO_MANY_FILES = DisputeActionOutcome.Refused({
  code: "evidence_file_refused",
  message:
    "Checkout.com takes one file per kind, and the refund policy, the cancellation policy and the other file share two of its fields: remove one of them, then submit again. Nothing was submitted."
})

const disputePath = (id: string) => `/disputes/${encodeURIComponent(id)}`

/** One dispute call: `Done` on a 2xx, else Checkout.com's refusal in our words. */
const answered = (call: CheckoutComCall, what: string, request: Parameters<CheckoutComCall>[1]) =>
  Effect.map(call(what, request), (answer) => {
    if (answer._tag === "Ok") return DisputeActionOutcome.Done()
    const { code, message, providerMessage } = refusalOfError(answer.status, answer.error)
    return DisputeActionOutcome.Refused({ code, message, providerMessage })
  })

/**
 * Evidence provided (`PUT …/evidence`, its files uploaded first and named by their ids) then submitted
 * (`POST …/evidence`); accepting is `POST …/accept`; a read is `GET /disputes/{id}`.
 */
export const checkoutComDisputes = (call: CheckoutComCall): DisputeOperations => ({
  takesFiles: true,
  submitEvidence: ({ evidence, files = [], pspDisputeId }) =>
    Effect.gen(function*() {
      const placed = checkoutComFileFieldsOf(files)
      if (placed === undefined) return TOO_MANY_FILES
      const fileFields: Record<string, string> = {}
      for (const { field, file } of placed) {
        const uploaded = yield* uploadFile(call, file)
        if (Either.isLeft(uploaded)) return uploaded.left
        fileFields[field] = uploaded.right
      }
      const provided = yield* answered(call, "provide dispute evidence", {
        method: "PUT",
        path: `${disputePath(pspDisputeId)}/evidence`,
        body: { ...checkoutComEvidenceOf(evidence), ...fileFields }
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
