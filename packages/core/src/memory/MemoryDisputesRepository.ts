import { DateTime, Effect, Layer, Option } from "effect"
import type { Dispute } from "../domain/disputes/Dispute.js"
import type { Tenant } from "../domain/Tenant.js"
import { DisputesRepository } from "../ports/DisputesRepository.js"
import { pageOf } from "./MemoryPaging.js"
import { memoryRecordRepository } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

/** `DisputesRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryDisputesRepository = Layer.effect(
  DisputesRepository,
  Effect.map(MemoryStore, (store) => {
    type Row = { readonly organizationId: string; readonly dispute: Dispute }
    const rows = () => store.table<Row>("disputes")
    const mine = (tenant: Tenant, row: Row | undefined) =>
      row !== undefined && row.organizationId === tenant.organizationId && row.dispute.livemode === tenant.livemode
    const visible = (tenant: Tenant) => [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.dispute)
    const find = (tenant: Tenant, id: string) =>
      Effect.sync(() => {
        const row = rows().get(id)
        return mine(tenant, row) ? Option.some(row!.dispute) : Option.none()
      })
    const save = (tenant: Tenant, dispute: Dispute) => Effect.sync(() => void rows().set(dispute.id, { organizationId: tenant.organizationId, dispute }))
    return {
      ...memoryRecordRepository(store, { save, find }),
      findByPspId: (tenant, provider, pspDisputeId) =>
        Effect.sync(() =>
          Option.fromNullable(visible(tenant).find((dispute) => dispute.provider === provider && dispute.provider_dispute_id === pspDisputeId))
        ),
      list: (tenant, filter, page) =>
        pageOf(
          visible(tenant),
          (dispute) =>
            (filter.status === undefined || dispute.status === filter.status) &&
            (filter.paymentId === undefined || dispute.payment_id === filter.paymentId) &&
            (filter.provider === undefined || dispute.provider === filter.provider) &&
            (filter.dueBefore === undefined ||
              (dispute.evidence_due_by !== null && DateTime.lessThan(dispute.evidence_due_by, filter.dueBefore))),
          page
        ),
      dueBefore: (dueBefore, limit) =>
        Effect.sync(() =>
          [...rows().values()]
            .filter(({ dispute }) =>
              dispute.status === "needs_response" && dispute.evidence_due_soon !== "24h" && dispute.evidence_due_by !== null &&
              DateTime.lessThan(dispute.evidence_due_by, dueBefore)
            )
            .sort((a, b) => a.dispute.evidence_due_by!.epochMillis - b.dispute.evidence_due_by!.epochMillis)
            .slice(0, limit)
            .map(({ dispute, organizationId }) => ({ tenant: { organizationId, livemode: dispute.livemode }, disputeId: dispute.id }))
        ),
      awaitingOutcome: (quietSince, limit) =>
        Effect.sync(() => {
          const reads = store.table<DateTime.Utc>("dispute_reads")
          const before = (time: DateTime.Utc | null | undefined) => time === null || time === undefined || DateTime.lessThan(time, quietSince)
          return [...rows().values()]
            .filter(({ dispute }) =>
              dispute.status === "under_review" && dispute.evidence_submission.status === "submitted" &&
              dispute.evidence_submission.submitted_at !== null && before(dispute.evidence_submission.submitted_at) &&
              before(dispute.provider_reported_at) && before(reads.get(dispute.id))
            )
            .sort((a, b) => a.dispute.evidence_submission.submitted_at!.epochMillis - b.dispute.evidence_submission.submitted_at!.epochMillis)
            .slice(0, limit)
            .map(({ dispute, organizationId }) => ({ tenant: { organizationId, livemode: dispute.livemode }, disputeId: dispute.id }))
        }),
      markRead: (ref, at) => Effect.sync(() => void store.table<DateTime.Utc>("dispute_reads").set(ref.disputeId, at))
    }
  })
)
