import { Effect } from "effect"
import type { Dispute, DisputeEvidenceFiles, EvidenceFileField, UpdateDisputeEvidence } from "../../domain/disputes/Dispute.js"
import { fundsOf } from "../../domain/disputes/DisputeDecisions.js"
import {
  DisputeActionNotSupported,
  DisputeActionRefused,
  DisputeNotEditable,
  DisputeProviderUnavailable,
  EvidenceFileNotFound
} from "../../domain/disputes/DisputeErrors.js"
import type { ConnectorError, DisputeActionOutcome } from "../../domain/providers/ConnectorOutcomes.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import type { DisputeOperations } from "../../ports/PaymentConnector.js"
import { Transactions } from "../../ports/Transactions.js"
import { Files } from "../files/Files.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { PaymentRecords } from "../payments/PaymentRecords.js"
import { Payments } from "../payments/Payments.js"
import { moveFunds } from "./DisputeFacts.js"
import { DisputeRecords } from "./DisputeRecords.js"

/** The merchant's answers to a dispute: evidence kept as a draft, then submitted, or the dispute accepted. */

/** Only a dispute that needs a response takes evidence or an answer. */
const editable = (tenant: Tenant, id: string) =>
  Effect.flatMap(
    Effect.flatMap(DisputeRecords, (records) => records.load(tenant, id)),
    (dispute) => dispute.status === "needs_response" ? Effect.succeed(dispute) : Effect.fail(new DisputeNotEditable({ dispute }))
  )

const fileFields = (files: DisputeEvidenceFiles | undefined) =>
  Object.entries(files ?? {}).flatMap(([field, fileId]) => typeof fileId === "string" ? [{ field: field as EvidenceFileField, fileId }] : [])

/** The files saved with those given laid over them, kind by kind; a kind given as `null` is taken out. */
const mergedFiles = (saved: DisputeEvidenceFiles | undefined, given: DisputeEvidenceFiles): DisputeEvidenceFiles =>
  Object.fromEntries(Object.entries({ ...saved, ...given }).filter(([, fileId]) => typeof fileId === "string"))

/** Each file the evidence names must be one of this tenant's: another's is as unknown as one that does not exist. */
const checkFiles = (tenant: Tenant, files: DisputeEvidenceFiles | undefined) =>
  Effect.flatMap(
    Files,
    (store) =>
      Effect.forEach(fileFields(files), ({ field, fileId }) =>
        Effect.mapError(store.retrieve(tenant, fileId), () => new EvidenceFileNotFound({ param: `files.${field}`, id: fileId })), { discard: true })
  )

/** Saves the evidence fields given over those saved (files by kind likewise); nothing reaches the PSP until `submit`. */
export const updateEvidence = (tenant: Tenant, id: string, input: UpdateDisputeEvidence) =>
  Effect.gen(function*() {
    const records = yield* DisputeRecords
    yield* checkFiles(tenant, input.files)
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const dispute = yield* editable(tenant, id)
      const locked = yield* records.lock(tenant, dispute.id)
      if (locked.status !== "needs_response") return yield* new DisputeNotEditable({ dispute: locked })
      const files = input.files === undefined ? locked.evidence.files : mergedFiles(locked.evidence.files, input.files)
      return yield* records.save(tenant, locked, { evidence: { ...locked.evidence, ...input, ...(files === undefined ? {} : { files }) } })
    }))
  })

/** The files the evidence names, with their bytes (a file cannot disappear: it was checked when named). */
const evidenceFiles = (tenant: Tenant, dispute: Dispute) =>
  Effect.flatMap(
    Files,
    (store) =>
      Effect.forEach(fileFields(dispute.evidence.files), ({ field, fileId }) =>
        Effect.map(Effect.orDie(store.read(tenant, fileId)), ({ contents, file }) => ({ field, file, contents })))
  )

/**
 * Asks the dispute's PSP through its connector's dispute operations; what the PSP answered, or the
 * failure that leaves the dispute as it was (not supported, unreachable, refused: the refusal kept on it).
 */
const askProvider = (
  tenant: Tenant,
  dispute: Dispute,
  withFiles: boolean,
  ask: (operations: DisputeOperations, pspPaymentId: string | null) => Effect.Effect<DisputeActionOutcome, ConnectorError>
) =>
  Effect.gen(function*() {
    const payment = yield* Effect.orDie((yield* Payments).retrieve(tenant, dispute.payment_id))
    let supported = true
    let takesFiles = true
    const { result } = yield* (yield* PaymentCalls).call(tenant, dispute.provider, (connector) => {
      if (connector.disputes === undefined) {
        supported = false
        return Effect.succeed<DisputeActionOutcome>({ _tag: "Done" })
      }
      if (withFiles && connector.disputes.takesFiles !== true) {
        takesFiles = false
        return Effect.succeed<DisputeActionOutcome>({ _tag: "Done" })
      }
      return ask(connector.disputes, payment.provider_payment_id)
    })
    if (!supported) return yield* new DisputeActionNotSupported({ dispute })
    if (!takesFiles) return yield* new DisputeActionNotSupported({ dispute, files: true })
    if (result._tag !== "Answered") return yield* new DisputeProviderUnavailable({ dispute })
    if (result.value._tag === "Refused") {
      const { code, message } = result.value
      const refused = yield* (yield* DisputeRecords).save(tenant, dispute, {
        evidence_submission: { status: "refused", submitted_at: null, failure: { code, message } }
      })
      return yield* new DisputeActionRefused({ dispute: refused, code, message })
    }
  })

/** Sends the saved evidence to the PSP and submits it; the dispute moves to `under_review`. */
export const submitEvidence = (tenant: Tenant, id: string) =>
  Effect.gen(function*() {
    const dispute = yield* editable(tenant, id)
    const files = yield* evidenceFiles(tenant, dispute)
    yield* askProvider(tenant, dispute, files.length > 0, (operations, pspPaymentId) =>
      operations.submitEvidence({ pspDisputeId: dispute.provider_dispute_id, pspPaymentId, reason: dispute.reason, evidence: dispute.evidence, files }))
    const submittedAt = yield* now
    return yield* (yield* DisputeRecords).moveIfStill(tenant, id, "needs_response", "under_review", () => ({
      evidence_submission: { status: "submitted", submitted_at: submittedAt, failure: null }
    }))
  })

/** Accepts the dispute at the PSP (the merchant gives up): `accepted`, final, the funds stay with the customer. */
export const acceptDispute = (tenant: Tenant, id: string) =>
  Effect.gen(function*() {
    const dispute = yield* editable(tenant, id)
    yield* askProvider(tenant, dispute, false, (operations, pspPaymentId) => operations.accept({ pspDisputeId: dispute.provider_dispute_id, pspPaymentId }))
    const records = yield* DisputeRecords
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const payment = yield* (yield* PaymentRecords).lock(tenant, dispute.payment_id)
      const current = yield* records.lock(tenant, id)
      if (current.status !== "needs_response") return current
      const accepted = yield* records.move(tenant, current, "accepted", { funds: fundsOf("accepted", current.stage) })
      yield* moveFunds(tenant, payment, current, accepted)
      return accepted
    }))
  })
