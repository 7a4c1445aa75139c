import { serviceError } from "./FakeAdyenCheckout.js"
import type { PspAnswer } from "./FakePspServer.js"

/** Where the fake serves Adyen's Disputes API (v30), as Adyen's own host does under its base URL. */
export const ADYEN_DISPUTES_PATH = "/ca/services/DisputeService/v30"

/** A defense reason as `retrieveApplicableDefenseReasons` gives it: its code and the document types it takes. */
export interface FakeDefenseReason {
  readonly defenseReasonCode: string
  readonly documentTypes: ReadonlyArray<{ readonly code: string; readonly requirementLevel: "Required" | "OneOrMore" | "Optional" }>
}

/** A dispute as Adyen's Disputes API keeps it: open (`Unresponded`) until defended, accepted or expired. */
export interface FakeAdyenDispute {
  readonly pspReference: string
  status: "Unresponded" | "Responded" | "Accepted" | "Expired"
  readonly reasons: ReadonlyArray<FakeDefenseReason>
  readonly documents: Array<{ readonly defenseDocumentTypeCode: string; readonly contentType: string; readonly content: string }>
  defendedWith: string | undefined
}

/** Adyen's usual reasons for a "goods not received" chargeback (its documentation's examples). */
export const DEFAULT_DEFENSE_REASONS: ReadonlyArray<FakeDefenseReason> = [
  {
    defenseReasonCode: "GoodsOrServicesProvided",
    documentTypes: [{ code: "ProofOfDelivery", requirementLevel: "Required" }, { code: "DefenseMaterial", requirementLevel: "Optional" }]
  },
  { defenseReasonCode: "SupplyDefenseMaterial", documentTypes: [{ code: "DefenseMaterial", requirementLevel: "Required" }] }
]

const ACCEPTED_TYPES = new Set(["application/pdf", "image/jpeg", "image/tiff"])

const result = (success: boolean, errorMessage?: string): PspAnswer => [200, {
  disputeServiceResult: errorMessage === undefined ? { success } : { success, errorMessage }
}]

/** What the document of `content` starts with, decoded from base64 (a PDF begins `%PDF-`). */
const startsAs = (content: unknown, prefix: string) => typeof content === "string" && Buffer.from(content, "base64").toString("latin1").startsWith(prefix)

/** One call to the Disputes API; a dispute not open answers `success: false`, as Adyen does. */
export const handleAdyenDisputes = (disputes: Map<string, FakeAdyenDispute>, merchantAccount: string, path: string, body: any): PspAnswer => {
  if (body?.merchantAccountCode !== merchantAccount) return serviceError(403, "901", "Invalid Merchant Account")
  const dispute = disputes.get(body?.disputePspReference)
  if (dispute === undefined) return result(false, "Could not find dispute")
  const action = path.slice(ADYEN_DISPUTES_PATH.length)
  if (action === "/retrieveApplicableDefenseReasons") {
    return [200, {
      disputeServiceResult: { success: true },
      defenseReasons: dispute.reasons.map((reason) => ({
        defenseReasonCode: reason.defenseReasonCode,
        satisfied: reason.documentTypes.every((type) =>
          type.requirementLevel !== "Required" || dispute.documents.some((doc) => doc.defenseDocumentTypeCode === type.code)
        ),
        defenseDocumentTypes: reason.documentTypes.map((type) => ({
          defenseDocumentTypeCode: type.code,
          requirementLevel: type.requirementLevel,
          available: dispute.documents.some((doc) => doc.defenseDocumentTypeCode === type.code)
        }))
      }))
    }]
  }
  if (dispute.status !== "Unresponded") return result(false, `Dispute is not defendable (${dispute.status})`)
  if (action === "/supplyDefenseDocument") {
    const documents: Array<any> = Array.isArray(body.defenseDocuments) ? body.defenseDocuments : []
    if (documents.length === 0) return serviceError(422, "000", "defenseDocuments is empty")
    for (const document of documents) {
      if (!ACCEPTED_TYPES.has(document.contentType)) return result(false, `Content type ${document.contentType} is not supported`)
      if (document.contentType === "application/pdf" && !startsAs(document.content, "%PDF-")) return result(false, "The document is not a PDF")
    }
    dispute.documents.push(...documents)
    return result(true)
  }
  if (action === "/defendDispute") {
    const reason = dispute.reasons.find((each) => each.defenseReasonCode === body.defenseReasonCode)
    if (reason === undefined) return result(false, "Invalid defense reason code")
    const missing = reason.documentTypes.find((type) =>
      type.requirementLevel === "Required" && !dispute.documents.some((doc) => doc.defenseDocumentTypeCode === type.code)
    )
    if (missing !== undefined) return result(false, `Required document ${missing.code} missing`)
    dispute.status = "Responded"
    dispute.defendedWith = reason.defenseReasonCode
    return result(true)
  }
  if (action === "/acceptDispute") {
    dispute.status = "Accepted"
    return result(true)
  }
  return serviceError(404, "000", "Not found")
}
