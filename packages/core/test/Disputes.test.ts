import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import type { Currency } from "../src/domain/Currency.js"
import type { DisputeFact } from "../src/domain/disputes/DisputeFact.js"
import { DisputeActionOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { Disputes } from "../src/features/disputes/Disputes.js"
import { Payments } from "../src/features/payments/Payments.js"
import { Refunds } from "../src/features/refunds/Refunds.js"
import { EventsRepository } from "../src/ports/EventsRepository.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const HOUR = 3600_000

const setup = Effect.gen(function*() {
  const tenant = yield* createTenant
  const payments = yield* Payments
  const payment = yield* payments.create(tenant, { amount: 5000, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_visa" } })
  const disputes = yield* Disputes
  const now = yield* TestClock.currentTimeMillis
  const fact = (overrides: Partial<DisputeFact> = {}): DisputeFact => ({
    pspDisputeId: "du_1",
    reference: null,
    pspPaymentId: payment.provider_payment_id,
    status: "needs_response",
    stage: "chargeback",
    amount: 2000,
    currency: "EUR" as Currency,
    reason: "product_not_received",
    reasonCode: "13.1",
    evidenceDueByMillis: now + 100 * HOUR,
    fee: { amount: 1500, currency: "EUR" as Currency },
    occurredAtMillis: now,
    ...overrides
  })
  yield* disputes.applyFact(tenant, payment.provider, fact())
  const [dispute] = (yield* disputes.list(tenant, { status: undefined, paymentId: payment.id, provider: undefined, dueBefore: undefined }, {
    limit: 1,
    startingAfter: undefined
  })).data
  return { tenant, payment, payments, disputes, dispute: dispute!, fact }
})

const typesOf = (tenant: Parameters<EventsRepository["Type"]["listRecent"]>[0], id: string) =>
  Effect.map(
    Effect.flatMap(EventsRepository, (events) => events.listRecent(tenant, 100)),
    (events) => events.filter((event) => (event.data.object as { id: string }).id === id).map((event) => event.type).reverse()
  )

describe("Disputes", () => {
  it.effect("holds the disputed amount back from refunds, and gives it back when the dispute is won", () =>
    Effect.gen(function*() {
      const { dispute, disputes, fact, payment, payments, tenant } = yield* setup
      expect(dispute).toMatchObject({ status: "needs_response", funds: "withdrawn", amount: 2000, reason_code: "13.1" })
      expect(yield* payments.retrieve(tenant, payment.id)).toMatchObject({ status: "succeeded", amount_disputed: 2000, disputed: true })
      const refunds = yield* Refunds
      const tooMuch = yield* Effect.flip(refunds.create(tenant, payment.id, { amount: 3001 }))
      expect(tooMuch).toMatchObject({ _tag: "AmountTooLarge", maximum: 3000 })

      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "won", occurredAtMillis: dispute.provider_reported_at.epochMillis + 1 }))
      expect((yield* payments.retrieve(tenant, payment.id)).amount_disputed).toBe(0)
      expect(yield* typesOf(tenant, dispute.id)).toEqual(["dispute.created", "dispute.funds_withdrawn", "dispute.closed", "dispute.funds_reinstated"])
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("keeps evidence as a draft, refuses it on a closed dispute, and says when the PSP takes no answer by API", () =>
    Effect.gen(function*() {
      const { dispute, disputes, fact, payment, tenant } = yield* setup
      const saved = yield* disputes.updateEvidence(tenant, dispute.id, { product_description: "Wool socks", shipping_carrier: "DHL" })
      const again = yield* disputes.updateEvidence(tenant, dispute.id, { shipping_carrier: "UPS" })
      expect(again.evidence).toEqual({ product_description: "Wool socks", shipping_carrier: "UPS" })
      expect(saved.evidence_submission.status).toBe("not_submitted")
      // The scripted PSP, like Mollie, has no dispute operations.
      expect(yield* Effect.flip(disputes.submit(tenant, dispute.id))).toMatchObject({ _tag: "DisputeActionNotSupported" })

      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "lost", occurredAtMillis: dispute.provider_reported_at.epochMillis + 1 }))
      const closed = yield* Effect.flip(disputes.updateEvidence(tenant, dispute.id, { receipt: "late" }))
      expect(closed).toMatchObject({ _tag: "DisputeNotEditable" })
      expect(closed._tag === "DisputeNotEditable" && closed.answer.code).toBe("dispute_closed")
      expect(yield* Effect.flip(disputes.retrieve(yield* createTenant, dispute.id))).toMatchObject({ _tag: "DisputeNotFound" })
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("takes news dated the same second only when it takes the dispute further", () =>
    Effect.gen(function*() {
      const { dispute, disputes, fact, payment, tenant } = yield* setup
      const same = dispute.provider_reported_at.epochMillis
      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "under_review", occurredAtMillis: same }))
      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "needs_response", occurredAtMillis: same }))
      expect((yield* disputes.retrieve(tenant, dispute.id)).status).toBe("under_review")
      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "lost", occurredAtMillis: same }))
      yield* disputes.applyFact(tenant, payment.provider, fact({ status: "won", occurredAtMillis: same }))
      expect((yield* disputes.retrieve(tenant, dispute.id)).status).toBe("lost")
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("warns at 72 h and at 24 h before the deadline, once each", () =>
    Effect.gen(function*() {
      const { dispute, disputes, tenant } = yield* setup
      // Due in 100 hours.
      expect(yield* disputes.warnDue).toBe(0)
      yield* TestClock.adjust("29 hours")
      expect(yield* disputes.warnDue).toBe(1)
      expect((yield* disputes.retrieve(tenant, dispute.id)).evidence_due_soon).toBe("72h")
      expect(yield* disputes.warnDue).toBe(0)
      yield* TestClock.adjust("46 hours")
      expect(yield* disputes.warnDue).toBe(0)
      yield* TestClock.adjust("2 hours")
      expect(yield* disputes.warnDue).toBe(1)
      expect((yield* disputes.retrieve(tenant, dispute.id)).evidence_due_soon).toBe("24h")
      yield* TestClock.adjust("30 hours")
      expect(yield* disputes.warnDue).toBe(0)
      const updates = (yield* typesOf(tenant, dispute.id)).filter((type) => type === "dispute.updated")
      expect(updates).toHaveLength(2)
    }).pipe(Effect.provide(makeTestServices().layer)))

  it.effect("reads a dispute whose outcome is late from its PSP a week after its last news, applies what it says, and reads it at most once a week", () => {
    const services = makeTestServices()
    const reads: Array<number> = []
    let says: "under_review" | "won" = "under_review"
    let answer: ((status: "under_review" | "won", atMillis: number) => DisputeFact) | undefined = undefined
    services.psp.setDisputeOperations({
      submitEvidence: () => Effect.succeed(DisputeActionOutcome.Done()),
      accept: () => Effect.succeed(DisputeActionOutcome.Done()),
      read: ({ atMillis, pspDisputeId }) =>
        Effect.sync(() => {
          reads.push(atMillis)
          return pspDisputeId === "du_1" ? answer?.(says, atMillis) : undefined
        })
    })
    return Effect.gen(function*() {
      const { dispute, disputes, fact, payment, payments, tenant } = yield* setup
      answer = (status, atMillis) => fact({ status, occurredAtMillis: atMillis })
      yield* disputes.updateEvidence(tenant, dispute.id, { product_description: "Wool socks" })
      expect((yield* disputes.submit(tenant, dispute.id)).status).toBe("under_review")
      // Evidence just submitted: the PSP's news is not late yet.
      expect(yield* disputes.reconcile).toBe(0)
      yield* TestClock.adjust("6 days")
      expect(yield* disputes.reconcile).toBe(0)
      yield* TestClock.adjust("1 day")
      yield* TestClock.adjust("1 minute")
      // A week without news: read; the PSP still reviews it, and it waits another week.
      expect(yield* disputes.reconcile).toBe(1)
      expect(yield* disputes.reconcile).toBe(0)
      expect((yield* disputes.retrieve(tenant, dispute.id)).status).toBe("under_review")
      yield* TestClock.adjust("6 days")
      expect(yield* disputes.reconcile).toBe(0)
      // The PSP decided and its webhook was lost: the next read moves the dispute as the webhook would have.
      says = "won"
      yield* TestClock.adjust("1 day")
      yield* TestClock.adjust("1 minute")
      expect(yield* disputes.reconcile).toBe(1)
      expect(yield* disputes.retrieve(tenant, dispute.id)).toMatchObject({ status: "won", funds: "reinstated" })
      expect((yield* payments.retrieve(tenant, payment.id)).amount_disputed).toBe(0)
      expect(yield* typesOf(tenant, dispute.id)).toEqual([
        "dispute.created",
        "dispute.funds_withdrawn",
        "dispute.evidence_submitted",
        "dispute.closed",
        "dispute.funds_reinstated"
      ])
      // Closed: never read again.
      yield* TestClock.adjust("30 days")
      expect(yield* disputes.reconcile).toBe(0)
      expect(reads).toHaveLength(2)
    }).pipe(Effect.provide(services.layer))
  })
})
