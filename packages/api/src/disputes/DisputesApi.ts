import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AnswerDispute,
  Dispute,
  DisputeActionNotSupported,
  DisputeActionRefused,
  DisputeNotEditable,
  DisputeNotFound,
  DisputeProviderUnavailable,
  DisputeStatus,
  EvidenceFileNotFound,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Identifier,
  ListOf,
  optionalField,
  TimeFilter,
  UpdateDisputeEvidence
} from "@orchestrator/core"
import { Schema } from "effect"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, listPage, ListQuery, retrieveById } from "../Endpoints.js"
import { OptionalIdempotencyKey } from "../Headers.js"

export const DisputeList = ListOf(Dispute).annotations({ identifier: "DisputeList" })

export const DisputeListQuery = ListQuery({
  status: optionalField(DisputeStatus, "Only disputes in this status (`needs_response` for those waiting for you)."),
  payment_id: optionalField(Identifier, "Only the disputes of this payment (`pay_…`)."),
  provider: optionalField(Identifier, "Only the disputes of this provider connection (its `name`)."),
  due_before: optionalField(TimeFilter, "Only disputes whose evidence is due before this time (ISO 8601).")
})

/** An answer to one dispute: idempotent under an optional key; the dispute, or why not. */
const disputeCommand = <Name extends string, Body extends Schema.Schema.Any>(name: Name, path: HttpApiEndpoint.PathSegment, body: Body) =>
  HttpApiEndpoint.post(name, path)
    .setPath(ById)
    .setHeaders(OptionalIdempotencyKey)
    .setPayload(Schema.NullOr(body))
    .addSuccess(Dispute)
    .addError(apiErrorOf(DisputeNotFound))
    .addError(apiErrorOf(DisputeNotEditable))
    .addError(apiErrorOf(IdempotencyKeyInUse))
    .addError(apiErrorOf(IdempotencyKeyReused))

export class DisputesApi extends HttpApiGroup.make("disputes")
  .add(
    listPage("/disputes", DisputeListQuery, DisputeList, "List disputes, newest first")
      .annotate(
        OpenApi.Description,
        "The disputes of this key's mode from every provider, newest first; narrow them by `status`, `payment_id`, " +
          "`provider` or `due_before` (those whose deadline is near: `status=needs_response&due_before=…`)."
      )
  )
  .add(
    retrieveById("/disputes/:id", Dispute, DisputeNotFound, "Retrieve a dispute")
      .annotate(OpenApi.Description, "The dispute as the provider last told it, with the evidence saved so far.")
  )
  .add(
    disputeCommand("evidence", "/disputes/:id/evidence", UpdateDisputeEvidence)
      .addError(apiErrorOf(EvidenceFileNotFound))
      .annotate(OpenApi.Summary, "Save evidence for a dispute")
      .annotate(
        OpenApi.Description,
        "Saves the evidence fields given over those saved (a draft: the provider sees nothing until `submit`). " +
          "Files are named by kind in `files` (`receipt`, `customer_communication`, …), each a `file_…` uploaded with `POST /v1/files`; " +
          "a file this key cannot see answers 404 with `param` naming the kind. " +
          "Only while the dispute is `needs_response`; a closed dispute, or one whose evidence was submitted, answers 409."
      )
  )
  .add(
    disputeCommand("submit", "/disputes/:id/submit", AnswerDispute)
      .addError(apiErrorOf(DisputeActionRefused))
      .addError(apiErrorOf(DisputeActionNotSupported))
      .addError(apiErrorOf(DisputeProviderUnavailable))
      .annotate(OpenApi.Summary, "Submit a dispute's evidence to the provider")
      .annotate(
        OpenApi.Description,
        "Sends the saved evidence to the provider and submits it, in the provider's own terms (Stripe: each file uploaded to " +
          "Stripe's files (`purpose=dispute_evidence`) and named in its evidence field of the same kind, then `evidence[...]` " +
          "with `submit`; Checkout.com: each file uploaded by `POST /files` and named in its `*_file` field of the evidence `PUT`, " +
          "then submitted; PayPal: `provide-evidence`, each file an `evidence-file` part named in the documents of its kind's evidence; " +
          "Adyen: the text as a PDF and each file as it was uploaded by `supplyDefenseDocument`, then `defendDispute` under a reason " +
          "from `retrieveApplicableDefenseReasons`; the sandbox decides it by its text " +
          "and takes files). The dispute moves to `under_review` " +
          "(`dispute.evidence_submitted`). A refusal by the provider answers 422 and leaves the evidence editable, " +
          "`evidence_submission.failure` saying why; a provider whose disputes are not answered by API here (Mollie, whose chargebacks " +
          "are read only) answers 422 `not_supported`: answer in its dashboard. A file the provider refuses answers 422 " +
          "`evidence_file_refused`, naming it, with nothing submitted. Evidence with files, to a provider whose connector " +
          "cannot send them (none of those above), answers 422 `evidence_files_not_supported` and sends nothing."
      )
  )
  .add(
    disputeCommand("accept", "/disputes/:id/accept", AnswerDispute)
      .addError(apiErrorOf(DisputeActionRefused))
      .addError(apiErrorOf(DisputeActionNotSupported))
      .addError(apiErrorOf(DisputeProviderUnavailable))
      .annotate(OpenApi.Summary, "Accept a dispute")
      .annotate(
        OpenApi.Description,
        "Tells the provider you do not contest the dispute (Stripe: `close`; Checkout.com: `accept`; PayPal: `accept-claim`; Adyen: `acceptDispute`): " +
          "it becomes `accepted` (`dispute.closed`), " +
          "final, and the disputed amount stays with the customer."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Disputes")
  .annotate(
    OpenApi.Description,
    "A dispute is a customer contesting a payment with their bank (an inquiry, a chargeback, pre-arbitration), as its " +
      "provider reports it, normalized: one list for every provider, each with its deadline (`evidence_due_by`). " +
      "Answer with evidence (`evidence`, then `submit`) or `accept` it. While the provider holds the money back, the " +
      "payment's `amount_disputed` counts it and it cannot be refunded. See the guide at /docs/guides/disputes."
  )
{}
