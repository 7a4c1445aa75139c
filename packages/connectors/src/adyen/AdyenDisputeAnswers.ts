import { DisputeActionOutcome, type DisputeEvidence, type DisputeOperations } from "@orchestrator/core"
import { Effect, Schema } from "effect"
import { type AdyenCall, read, refusal } from "./AdyenApi.js"
import { evidenceLines, textPdf } from "./AdyenDefenseDocument.js"

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

/** The defense reason the evidence is sent under, and the document type it goes as: what the reason requires first. */
export const chooseDefense = (reasons: ReadonlyArray<DefenseReason>) => {
  const reason = PREFERRED.map((code) => reasons.find((each) => each.defenseReasonCode === code)).find((each) => each !== undefined) ?? reasons[0]
  if (reason === undefined) return undefined
  const types = reason.defenseDocumentTypes ?? []
  const type = types.find((each) => each.requirementLevel === "Required" || each.requirementLevel === "OneOrMore") ?? types[0]
  return { reasonCode: reason.defenseReasonCode, documentType: type?.defenseDocumentTypeCode ?? "DefenseMaterial" }
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
 * the evidence supplied as one PDF of the reason's document type (`supplyDefenseDocument`), then the
 * dispute defended under that reason (`defendDispute`). Accepting is `acceptDispute`.
 */
export const adyenDisputes = (call: AdyenCall): DisputeOperations => ({
  submitEvidence: ({ evidence, pspDisputeId }) =>
    Effect.gen(function*() {
      const dispute = { disputePspReference: pspDisputeId }
      const reasons = yield* ask(call, DefenseReasons, "retrieve defense reasons", "/retrieveApplicableDefenseReasons", dispute)
      if (reasons.refused !== undefined) return reasons.refused
      const defense = chooseDefense(reasons.result.defenseReasons ?? [])
      if (defense === undefined) return refused("dispute_not_defendable", "The provider offers no way to defend this dispute.")
      const supplied = yield* ask(call, ServiceResult, "supply defense document", "/supplyDefenseDocument", {
        ...dispute,
        defenseDocuments: [{ defenseDocumentTypeCode: defense.documentType, contentType: "application/pdf", content: defenseContent(evidence) }]
      })
      if (supplied.refused !== undefined) return supplied.refused
      const defended = yield* ask(call, ServiceResult, "defend dispute", "/defendDispute", { ...dispute, defenseReasonCode: defense.reasonCode })
      return defended.refused ?? DisputeActionOutcome.Done()
    }),
  accept: ({ pspDisputeId }) =>
    Effect.map(
      ask(call, ServiceResult, "accept dispute", "/acceptDispute", { disputePspReference: pspDisputeId }),
      (answer) => answer.refused ?? DisputeActionOutcome.Done()
    )
})

/** The evidence as the content of Adyen's `DefenseDocument`: a PDF, base64. */
export const defenseContent = (evidence: DisputeEvidence) => textPdf(evidenceLines(evidence))
