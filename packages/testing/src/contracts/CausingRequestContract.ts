import { expect } from "@effect/vitest"
import { type CausingRequest, CurrentCausingRequest, EventsRepository, type Leased, PaymentsRepository, type StoredEvent } from "@orchestrator/core"
import { Effect } from "effect"
import { at, newTenant, payment, paymentEvent, type StorageContractTest } from "./StorageContractFixtures.js"

const traced: CausingRequest = { requestId: "req_traced", traceParent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }
const untraced: CausingRequest = { requestId: "req_untraced", traceParent: null }

/**
 * Events remember the request being served when they were written (for the worker spans that act
 * on them later), whichever way they are written: on their own or alongside their record.
 */
export const causingRequestContract = (it: StorageContractTest) => {
  it.effect("an event written while serving a request is handed on with that request; one written by a worker with none", () =>
    Effect.gen(function*() {
      const events = yield* EventsRepository
      const payments = yield* PaymentsRepository
      const tenant = yield* newTenant
      const created = payment(tenant, { status: "processing", created_at: at(1), updated_at: at(1) })
      const succeeded = payment(tenant, { ...created, status: "succeeded", updated_at: at(2) })
      const byItself = paymentEvent(payment(tenant), 1)
      const withInsert = paymentEvent(created, 2)
      const withUpdate = paymentEvent(succeeded, 3, "payment.succeeded")
      const byWorker = paymentEvent(payment(tenant), 4)

      yield* events.insertAll(tenant.organizationId, [byItself]).pipe(Effect.locally(CurrentCausingRequest, traced))
      yield* payments.insertWithEvents(tenant, created, [withInsert]).pipe(Effect.locally(CurrentCausingRequest, untraced))
      expect(yield* payments.updateIfUnchanged(tenant, created, succeeded, [withUpdate]).pipe(Effect.locally(CurrentCausingRequest, traced)))
        .toBe(true)
      yield* events.insert(tenant.organizationId, byWorker)

      const claimed = yield* events.claimUndispatched({ now: at(10), until: at(60_010), limit: 1000 })
      const causeOf = new Map(
        claimed.filter(({ item }: Leased<StoredEvent>) => item.organizationId === tenant.organizationId).map(({ item }) => [item.event.id, item.cause])
      )
      expect(causeOf.get(byItself.id)).toEqual(traced)
      expect(causeOf.get(withInsert.id)).toEqual(untraced)
      expect(causeOf.get(withUpdate.id)).toEqual(traced)
      expect(causeOf.get(byWorker.id)).toBeNull()
      // Internal only: what the API lists is the envelope, without the request.
      const listed = yield* events.listRecent(tenant, 10)
      expect(listed.every((event) => !("request_id" in event) && !("trace_parent" in event) && !("cause" in event))).toBe(true)
    }))
}
