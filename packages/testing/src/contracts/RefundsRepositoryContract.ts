import { expect } from "@effect/vitest"
import { Failure, PaymentsRepository, Refund, RefundsRepository } from "@orchestrator/core"
import { Effect, Option } from "effect"
import { at, newTenant, page, payment, refund, same, type StorageContractTest } from "./StorageContractFixtures.js"

/** A refund store: stored, listed by payment, leased while pending. */
export const refundsRepositoryContract = (it: StorageContractTest) => {
  it.effect("stores refunds, lists them by payment and leases pending ones for reconciliation", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentsRepository
      const refunds = yield* RefundsRepository
      const tenant = yield* newTenant
      const paid = payment(tenant, { status: "succeeded", amount_captured: 1050, amount_refunded: 800 })
      yield* payments.insert(tenant, paid)
      const first = refund(tenant, paid.id, { created_at: at(1), reason: "duplicate", metadata: { a: "b" } })
      const second = refund(tenant, paid.id, { created_at: at(2), amount: 300 })
      for (const row of [first, second]) yield* refunds.insert(tenant, row)
      same(Refund, Option.getOrThrow(yield* refunds.find(tenant, first.id)), first)
      const done = new Refund({
        ...first,
        status: "failed",
        provider_refund_id: "re_1",
        failure: new Failure({ code: "refund_declined", message: "no" }),
        updated_at: at(9)
      })
      yield* refunds.update(tenant, done)
      same(Refund, Option.getOrThrow(yield* refunds.findForUpdate(tenant, first.id)), done)

      const listed = yield* refunds.list(tenant, { paymentId: paid.id }, page(1))
      expect([listed.data.map((row) => row.id), listed.hasMore]).toEqual([[second.id], true])
      const next = yield* refunds.list(tenant, { paymentId: undefined }, page(5, second.id))
      expect(next.data.map((row) => row.id)).toEqual([first.id])
      expect(Option.isNone(yield* refunds.find(yield* newTenant, first.id))).toBe(true)

      const claim = (nowMillis: number) =>
        Effect.map(
          refunds.claimPending(at(100), { now: at(nowMillis), until: at(nowMillis + 60_000), limit: 10 }),
          (claimed) => claimed.map(({ item }) => item).filter((ref) => ref.tenant.organizationId === tenant.organizationId)
        )
      expect(yield* claim(200)).toEqual([{ tenant, refundId: second.id }])
      expect(yield* claim(300)).toEqual([])
    }))
}
