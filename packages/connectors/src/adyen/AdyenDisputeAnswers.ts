import {
  DisputeActionOutcome,
  type DisputeEvidence,
  type DisputeOperations,
  type EvidenceFileContents,
  type EvidenceFileField,
  FILE_MEDIA_TYPES
} from "@orchestrator/core"
import { Effect, Encoding, Schema } from "effect"
import { evidenceFilesRefused } from "../transport/MultipartForm.js"
import { type AdyenCall, read, refusal } from "./AdyenApi.js"
import { evidenceHasText, evidenceLines, textPdf } from "./AdyenDefenseDocument.js"

/** Every answer of Adyen's Disputes API carries whether it did it, and why not (`DisputeServiceResult`). */
const ServiceResult = Schema.Struct({
  disputeServiceResult: Schema.Struct({ success: Schema.Boolean, errorMessage: Schema.optional(Schema.String) })
})

const DefenseReasons = Schema.Struct({
  ...ServiceResult.fields,
  defenseReasons: Schema.optional(Schema.Array(Schema.Struct({
    defenseReasonCode: Schema.String,
    defenseDocumentTypes: Schema.optional(Schema.Array(Schema.Struct({
      defenseDocumentTypeCode: Schema.String,
      requirementLevel: Schema.optional(Schema.String)
    })))
  })))
})
type DefenseReason = NonNullable<typeof DefenseReasons.Type["defenseReasons"]>[number]

/**
 * Adyen's defense reasons that stand on the merchant's own material, most general first: the
 * service's evidence is text, written into one document, which these take.
 */
const PREFERRED = ["SupplyDefenseMaterial", "GoodsOrServicesProvided", "AdditionalInformation"]

/** Adyen's document type codes that say what each kind of our files is, as its documentation names them. */
const FILE_DOCUMENT_TYPES: { readonly [Field in EvidenceFileField]: RegExp } = {
  receipt: /Invoice|Receipt/i,
  customer_communication: /Correspondence|Communication/i,
  shipping_documentation: /Delivery|Shipping|Shipment/i,
  refund_policy: /Policy|Terms/i,
  cancellation_policy: /Policy|Terms|Cancel/i,
  uncategorized_file: /DefenseMaterial/
}

/**
 * The defense reason the evidence is sent under, the document type its text goes as (what the reason
 * requires first), and the type each kind of file goes as: the reason's type naming that kind, else
 * its general `DefenseMaterial`, else the type the text goes as.
 */
export const chooseDefense = (reasons: ReadonlyArray<DefenseReason>) => {
  const reason = PREFERRED.map((code) => reasons.find((each) => each.defenseReasonCode === code)).find((each) => each !== undefined) ?? reasons[0]
  if (reason === undefined) return undefined
  const types = reason.defenseDocumentTypes ?? []
  const type = types.find((each) => each.requirementLevel === "Required" || each.requirementLevel === "OneOrMore") ?? types[0]
  const documentType = type?.defenseDocumentTypeCode ?? "DefenseMaterial"
  const codes = types.map((each) => each.defenseDocumentTypeCode)
  const fileDocumentType = (field: EvidenceFileField) =>
    codes.find((code) => FILE_DOCUMENT_TYPES[field].test(code)) ?? codes.find((code) => code === "DefenseMaterial") ?? documentType
  return { reasonCode: reason.defenseReasonCode, documentType, fileDocumentType }
}

const refused = (code: string, message: string, providerMessage?: string) => DisputeActionOutcome.Refused({ code, message, providerMessage })

/** One Disputes API call: its decoded answer, or the refusal to answer with (HTTP error, or `success: false`). */
const ask = <A extends typeof ServiceResult.Type, I>(call: AdyenCall, schema: Schema.Schema<A, I>, what: string, path: string, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const answer = yield* call(what, path, (merchantAccountCode) => ({ merchantAccountCode, ...body }), null)
    if (answer._tag === "Failed") {
      const { code, message, providerMessage } = refusal(answer.error)
      return { refused: refused(code, message, providerMessage) } as const
    }
    const result = yield* read(schema, what)(answer.json)
    if (!result.disputeServiceResult.success) {
      return { refused: refused("invalid_request", "The payment provider refused the request.", result.disputeServiceResult.errorMessage) } as const
    }
    return { result } as const
  })

/**
 * Evidence as Adyen takes it: the applicable defense reasons read (`retrieveApplicableDefenseReasons`),
 * the evidence's text supplied as one PDF of the reason's document type (`supplyDefenseDocument`), then
 * its files in one more (each as it was uploaded, base64, of the type its kind goes as; Adyen takes
 * them all or none), then the dispute defended under that reason (`defendDispute`). Accepting is
 * `acceptDispute`.
 */
export const adyenDisputes = (call: AdyenCall): DisputeOperations => ({
  takesFiles: true,
  submitEvidence: ({ evidence, files = [], pspDisputeId }) =>
    Effect.gen(function*() {
      const dispute = { disputePspReference: pspDisputeId }
      const reasons = yield* ask(call, DefenseReasons, "retrieve defense reasons", "/retrieveApplicableDefenseReasons", dispute)
      if (reasons.refused !== undefined) return reasons.refused
      const defense = chooseDefense(reasons.result.defenseReasons ?? [])
      if (defense === undefined) return refused("dispute_not_defendable", "The provider offers no way to defend this dispute.")
      const supply = (defenseDocuments: ReadonlyArray<Record<string, string>>) =>
        ask(call, ServiceResult, "supply defense document", "/supplyDefenseDocument", { ...dispute, defenseDocuments })
      // Our PDF goes unless files alone fill the reason's document type (without text it says only that the merchant contests).
      if (evidenceHasText(evidence) || !files.some((file) => defense.fileDocumentType(file.field) === defense.documentType)) {
        const supplied = yield* supply([{ defenseDocumentTypeCode: defense.documentType, contentType: "application/pdf", content: defenseContent(evidence) }])
        if (supplied.refused !== undefined) return supplied.refused
      }
      if (files.length > 0) {
        // A call of their own, after our PDF (one Adyen takes): a refusal of it is of the merchant's files.
        const supplied = yield* supply(files.map((file) => defenseDocumentOf(file, defense.fileDocumentType(file.field))))
        if (supplied.refused !== undefined) return evidenceFilesRefused(files, supplied.refused.providerMessage)
      }
      const defended = yield* ask(call, ServiceResult, "defend dispute", "/defendDispute", { ...dispute, defenseReasonCode: defense.reasonCode })
      return defended.refused ?? DisputeActionOutcome.Done()
    }),
  accept: ({ pspDisputeId }) =>
    Effect.map(
      ask(call, ServiceResult, "accept dispute", "/acceptDispute", { disputePspReference: pspDisputeId }),
      (answer) => answer.refused ?? DisputeActionOutcome.Done()
    )
})

/** An evidence file as Adyen's `DefenseDocument`: its bytes base64, under the media type its content was read as. */
export const defenseDocumentOf = ({ contents, file }: EvidenceFileContents, defenseDocumentTypeCode: string) => ({
  defenseDocumentTypeCode,
  contentType: FILE_MEDIA_TYPES[file.type],
  content: Encoding.encodeBase64(contents)
})

/** The evidence as the content of Adyen's `DefenseDocument`: a PDF, base64. */
export const defenseContent = (evidence: DisputeEvidence) => textPdf(evidenceLines(evidence))
