import { Context, Effect, Layer } from "effect"
import type { Dispute, UpdateDisputeEvidence } from "../../domain/disputes/Dispute.js"
import type {
  DisputeActionNotSupported,
  DisputeActionRefused,
  DisputeNotEditable,
  DisputeNotFound,
  DisputeProviderUnavailable,
  EvidenceFileNotFound
} from "../../domain/disputes/DisputeErrors.js"
import type { DisputeFact } from "../../domain/disputes/DisputeFact.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import type { Tenant } from "../../domain/Tenant.js"
import { type DisputeListFilter, DisputesRepository } from "../../ports/DisputesRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { EventLog } from "../events/EventLog.js"
import { Files } from "../files/Files.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { PaymentRecords } from "../payments/PaymentRecords.js"
import { Payments } from "../payments/Payments.js"
import { acceptDispute, submitEvidence, updateEvidence } from "./DisputeAnswers.js"
import { makeDisputeDeadlines } from "./DisputeDeadlines.js"
import { applyDisputeFact } from "./DisputeFacts.js"
import { makeDisputeReconciliation } from "./DisputeReconciliation.js"
import { DisputeRecords } from "./DisputeRecords.js"

type Answering = DisputeNotFound | DisputeNotEditable | DisputeActionNotSupported | DisputeActionRefused | DisputeProviderUnavailable

export class Disputes extends Context.Tag("core/Disputes")<
  Disputes,
  ResourceReads<Dispute, DisputeNotFound, DisputeListFilter> & {
    /**
     * A PSP's fact about a dispute on connection `provider` (a notification, or a read): the latest
     * the PSP dated wins, whatever the order of arrival; repeats change nothing.
     */
    readonly applyFact: (tenant: Tenant, provider: string, fact: DisputeFact) => Effect.Effect<"applied" | "unknown" | "foreign">
    /** Saves evidence fields (a draft; the PSP sees it on `submit`). Only while the dispute needs a response. */
    readonly updateEvidence: (
      tenant: Tenant,
      id: string,
      input: UpdateDisputeEvidence
    ) => Effect.Effect<Dispute, DisputeNotFound | DisputeNotEditable | EvidenceFileNotFound>
    /** Sends the evidence to the PSP and submits it: `under_review`. A refusal keeps the evidence editable and says why. */
    readonly submit: (tenant: Tenant, id: string) => Effect.Effect<Dispute, Answering>
    /** Accepts the dispute at the PSP: `accepted`, final. */
    readonly accept: (tenant: Tenant, id: string) => Effect.Effect<Dispute, Answering>
    /** Worker: warns of deadlines 72 h and 24 h ahead (`dispute.updated`, `evidence_due_soon`); how many were warned. */
    readonly warnDue: Effect.Effect<number>
    /** Worker: reads from their PSPs the disputes whose outcome is late (`DisputeReconciliation`); how many the PSPs told of. */
    readonly reconcile: Effect.Effect<number>
    readonly jobs: ReadonlyArray<Job>
  }
>() {
  static readonly layer = Layer.effect(Disputes, Effect.suspend(() => make)).pipe(
    Layer.provide(
      Layer.mergeAll(IdGenerator.layer, PaymentCalls.layer, Payments.layer, PaymentRecords.layer, DisputeRecords.layer, EventLog.layer, Files.layer)
    )
  )
}

/**
 * The disputes service: the PSPs' facts (`DisputeFacts`), the merchant's answers (`DisputeAnswers`),
 * the deadlines (`DisputeDeadlines`), the reads of disputes whose outcome is late (`DisputeReconciliation`).
 */
type Steps =
  | DisputeRecords
  | DisputesRepository
  | PaymentsRepository
  | PaymentRecords
  | Payments
  | PaymentCalls
  | IdGenerator
  | Transactions
  | EventLog
  | Files

const make = Effect.gen(function*() {
  const context = yield* Effect.context<Steps>()
  const steps = <A, E>(effect: Effect.Effect<A, E, Steps>) => Effect.provide(effect, context)
  const records = yield* DisputeRecords
  const repository = yield* DisputesRepository
  const { job, warnDue } = yield* makeDisputeDeadlines
  const reconciliation = yield* makeDisputeReconciliation((ref, provider, fact) => steps(applyDisputeFact(ref.tenant, provider, fact)))
  return Disputes.of({
    retrieve: (tenant, id) => records.load(tenant, id),
    list: (tenant, filter, page) => repository.list(tenant, filter, page),
    applyFact: (tenant, provider, fact) => steps(applyDisputeFact(tenant, provider, fact)).pipe(Effect.withSpan("Disputes.applyFact")),
    updateEvidence: (tenant, id, input) => steps(updateEvidence(tenant, id, input)).pipe(Effect.withSpan("Disputes.updateEvidence")),
    submit: (tenant, id) => steps(submitEvidence(tenant, id)).pipe(Effect.withSpan("Disputes.submit")),
    accept: (tenant, id) => steps(acceptDispute(tenant, id)).pipe(Effect.withSpan("Disputes.accept")),
    warnDue,
    reconcile: reconciliation.reconcile,
    jobs: [job, reconciliation.job]
  })
})
