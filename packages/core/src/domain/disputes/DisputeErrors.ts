import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"
import type { Dispute } from "./Dispute.js"

export class DisputeNotFound extends NotFound("DisputeNotFound", "dispute") {}

/** Evidence or an answer for a dispute that no longer takes one: closed, or its evidence already sent. */
export class DisputeNotEditable extends ServiceFailure("DisputeNotEditable", {
  kind: "conflict",
  codes: ["dispute_closed", "dispute_evidence_submitted"],
  description: "The dispute is closed, or its evidence was already submitted; the dispute is inside"
})<{ readonly dispute: Dispute }> {
  get answer(): FailureAnswer {
    return this.dispute.evidence_submission.status === "submitted" && this.dispute.status === "under_review"
      ? { code: "dispute_evidence_submitted", message: "The evidence of this dispute was already submitted.", concerns: this.dispute }
      : { code: "dispute_closed", message: `This dispute is closed (${this.dispute.status}).`, concerns: this.dispute }
  }
}

/** The PSP refused the evidence or the acceptance: the evidence stays editable, `code` and `message` say why. */
export class DisputeActionRefused extends ServiceFailure("DisputeActionRefused", {
  kind: "unprocessable",
  description: "The provider refused the evidence or the acceptance; the dispute is inside, its evidence still editable"
})<{ readonly dispute: Dispute; readonly code: string; readonly message: string }> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, concerns: this.dispute }
  }
}

/** Evidence names a file this key cannot see (unknown, another organization's or the other mode's). */
export class EvidenceFileNotFound extends ServiceFailure("EvidenceFileNotFound", {
  kind: "not_found",
  codes: ["resource_missing"],
  description: "The evidence names a file this key cannot see; `param` says which"
})<{ readonly param: string; readonly id: string }> {
  get answer(): FailureAnswer {
    return { message: `No such file: '${echoed(this.id)}'`, param: this.param }
  }
}

/** The dispute's PSP takes no answer by API (Mollie's chargebacks are read only). */
export class DisputeActionNotSupported extends ServiceFailure("DisputeActionNotSupported", {
  kind: "unprocessable",
  codes: ["not_supported", "evidence_files_not_supported"],
  description: "The dispute's provider takes no answer to disputes by API, or no evidence files from here yet; answer it in the provider's dashboard"
})<{ readonly dispute: Dispute; readonly files?: boolean }> {
  get answer(): FailureAnswer {
    if (this.files === true) {
      return {
        code: "evidence_files_not_supported",
        message:
          `Evidence files cannot be sent to the provider of this dispute ('${this.dispute.provider}') from here yet: remove them from the evidence, or answer in the provider's dashboard. Nothing was sent.`,
        concerns: this.dispute
      }
    }
    return {
      message: `The provider of this dispute ('${this.dispute.provider}') takes no evidence or acceptance by API: answer it in the provider's dashboard.`,
      concerns: this.dispute
    }
  }
}

/** The PSP could not be reached, or did not answer in time: the dispute is unchanged, retry. */
export class DisputeProviderUnavailable extends ServiceFailure("DisputeProviderUnavailable", {
  kind: "provider_unavailable",
  codes: ["provider_unavailable"],
  description: "The dispute's provider could not be reached or did not answer in time; the dispute is unchanged"
})<{ readonly dispute: Dispute }> {
  get answer(): FailureAnswer {
    return {
      message: `The payment provider '${this.dispute.provider}' could not be reached or did not answer in time; the dispute is unchanged. Retry later.`,
      concerns: this.dispute
    }
  }
}
