import { expect } from "@effect/vitest"
import { Dispute, DisputesRepository, PaymentsRepository, type Tenant } from "@orchestrator/core"
import { Effect, Option } from "effect"
import { at, id, newTenant, page, payment, same, type StorageContractTest } from "./StorageContractFixtures.js"

const dispute = (tenant: Tenant, paymentId: string, overrides: Partial<Dispute> = {}) =>
  new Dispute({
    object: "dispute",
    id: id("dp"),
    payment_id: paymentId,
    provider: "sandbox_a",
    provider_dispute_id: `du_${id("dp")}`,
    amount: 1050,
    currency: "EUR" as Dispute["currency"],
    reason: "fraudulent",
    reason_code: "10.4",
    stage: "chargeback",
    status: "needs_response",
    funds: "withdrawn",
    evidence_due_by: at(72 * 3600_000),
    evidence: {},
    evidence_submission: { status: "not_submitted", submitted_at: null, failure: null },
    evidence_due_soon: null,
    fee: { amount: 1500, currency: "EUR" as Dispute["currency"] },
    provider_reported_at: at(0),
    created_at: at(0),
    updated_at: at(0),
    livemode: tenant.livemode,
    ...overrides
  })

/** A dispute store: stored whole, found by the PSP's id, listed with its filters, and the deadlines due. */
export const disputesRepositoryContract = (it: StorageContractTest) => {
  it.effect("stores disputes, finds them by the PSP's id, lists them by filter and finds the deadlines due", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentsRepository
      const disputes = yield* DisputesRepository
      const tenant = yield* newTenant
      const paid = payment(tenant, { status: "succeeded", amount_captured: 1050, amount_disputed: 1050, disputed: true })
      yield* payments.insert(tenant, paid)
      const first = dispute(tenant, paid.id, { created_at: at(1), evidence: { product_description: "Socks" } })
      const second = dispute(tenant, paid.id, { created_at: at(2), status: "won", funds: "reinstated", evidence_due_by: null })
      for (const row of [first, second]) yield* disputes.insert(tenant, row)
      same(Dispute, Option.getOrThrow(yield* disputes.find(tenant, first.id)), first)
      same(Dispute, Option.getOrThrow(yield* disputes.findByPspId(tenant, "sandbox_a", second.provider_dispute_id)), second)
      expect(Option.isNone(yield* disputes.findByPspId(tenant, "other", second.provider_dispute_id))).toBe(true)
      expect(Option.isNone(yield* disputes.find(yield* newTenant, first.id))).toBe(true)
      expect(Option.getOrThrow(yield* payments.find(tenant, paid.id))).toMatchObject({ amount_disputed: 1050, disputed: true })

      const filter = { status: undefined, paymentId: paid.id, provider: undefined, dueBefore: undefined }
      expect((yield* disputes.list(tenant, filter, page(5))).data.map((row) => row.id)).toEqual([second.id, first.id])
      expect((yield* disputes.list(tenant, { ...filter, status: "needs_response" }, page(5))).data.map((row) => row.id)).toEqual([first.id])
      expect((yield* disputes.list(tenant, { ...filter, dueBefore: at(73 * 3600_000) }, page(5))).data.map((row) => row.id)).toEqual([first.id])
      expect((yield* disputes.list(tenant, { ...filter, dueBefore: at(71 * 3600_000) }, page(5))).data).toEqual([])

      const due = (before: number) =>
        Effect.map(disputes.dueBefore(at(before), 1000), (refs) => refs.filter((ref) => ref.tenant.organizationId === tenant.organizationId))
      expect(yield* due(73 * 3600_000)).toEqual([{ tenant, disputeId: first.id }])
      yield* disputes.update(tenant, new Dispute({ ...first, evidence_due_soon: "24h", updated_at: at(5) }))
      expect(yield* due(73 * 3600_000)).toEqual([])
    }))

  it.effect("finds the disputes whose outcome is late: submitted, no news and not read since, until read again", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentsRepository
      const disputes = yield* DisputesRepository
      const tenant = yield* newTenant
      const paid = payment(tenant, { status: "succeeded", amount_captured: 1050, amount_disputed: 1050, disputed: true })
      yield* payments.insert(tenant, paid)
      const submitted = { status: "submitted" as const, submitted_at: at(10), failure: null }
      const waiting = dispute(tenant, paid.id, { status: "under_review", evidence_submission: submitted, provider_reported_at: at(5) })
      const newsLater = dispute(tenant, paid.id, {
        status: "under_review",
        evidence_submission: { ...submitted, submitted_at: at(11) },
        provider_reported_at: at(50)
      })
      const draft = dispute(tenant, paid.id, { status: "under_review" })
      const closed = dispute(tenant, paid.id, { status: "won", funds: "reinstated", evidence_submission: submitted })
      for (const row of [waiting, newsLater, draft, closed]) yield* disputes.insert(tenant, row)
      const awaiting = (quietSince: number) =>
        Effect.map(disputes.awaitingOutcome(at(quietSince), 1000), (refs) => refs.filter((ref) => ref.tenant.organizationId === tenant.organizationId))
      expect(yield* awaiting(10)).toEqual([])
      expect(yield* awaiting(20)).toEqual([{ tenant, disputeId: waiting.id }])
      expect(yield* awaiting(60)).toEqual([{ tenant, disputeId: waiting.id }, { tenant, disputeId: newsLater.id }])
      yield* disputes.markRead({ tenant, disputeId: waiting.id }, at(70))
      expect(yield* awaiting(60)).toEqual([{ tenant, disputeId: newsLater.id }])
      expect(yield* awaiting(71)).toEqual([{ tenant, disputeId: waiting.id }, { tenant, disputeId: newsLater.id }])
    }))
}
