import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestContext } from "effect"
import * as fc from "fast-check"
import type { Currency } from "../src/domain/Currency.js"
import type { DisputeStage, DisputeStatus } from "../src/domain/disputes/Dispute.js"
import { fundsOf } from "../src/domain/disputes/DisputeDecisions.js"
import type { DisputeFact } from "../src/domain/disputes/DisputeFact.js"
import { DisputeStateMachine } from "../src/domain/disputes/DisputeStateMachine.js"
import { Disputes } from "../src/features/disputes/Disputes.js"
import { Payments } from "../src/features/payments/Payments.js"
import { EventsRepository } from "../src/ports/EventsRepository.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

/** One thing the PSP said, at its time: what the dispute truly went through, before delivery shuffles it. */
interface Said {
  readonly status: DisputeStatus
  readonly stage: DisputeStage
  readonly amount: number
}

/** A true history: opened, then moves the machine allows (a reopened outcome goes to pre-arbitration). */
const history: fc.Arbitrary<ReadonlyArray<Said>> = fc.record({
  opened: fc.constantFrom<DisputeStatus>("needs_response", "under_review"),
  stage: fc.constantFrom<DisputeStage>("inquiry", "chargeback"),
  choices: fc.array(fc.nat(), { maxLength: 6 }),
  amounts: fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 7, maxLength: 7 })
}).map(({ amounts, choices, opened, stage }) => {
  const said: Array<Said> = [{ status: opened, stage, amount: amounts[0]! }]
  for (const [index, choice] of choices.entries()) {
    const last = said[said.length - 1]!
    const moves = DisputeStateMachine.moves.filter((move) => move.from === last.status)
    if (moves.length === 0) break
    const to = moves[choice % moves.length]!.to
    const reopened = DisputeStateMachine.terminal.length > 0 && !["needs_response", "under_review"].includes(last.status) &&
      ["needs_response", "under_review"].includes(to)
    said.push({ status: to, stage: reopened ? "pre_arbitration" : last.stage, amount: amounts[index + 1]! })
  }
  return said
})

/** The history delivered in any order, some facts twice or more. */
const deliveries = history.chain((said) =>
  fc.tuple(
    fc.constant(said),
    fc.shuffledSubarray([...said.keys(), ...said.keys(), ...said.keys()], { minLength: said.length })
      .filter((order) => said.every((_, index) => order.includes(index)))
  )
)

const factOf = (pspPaymentId: string, said: Said, index: number): DisputeFact => ({
  pspDisputeId: "du_1",
  reference: null,
  pspPaymentId,
  status: said.status,
  stage: said.stage,
  amount: said.amount,
  currency: "EUR" as Currency,
  reason: "fraudulent",
  reasonCode: "10.4",
  evidenceDueByMillis: 1_900_000_000_000,
  fee: null,
  occurredAtMillis: 1_800_000_000_000 + index * 1000
})

const run = (said: ReadonlyArray<Said>, order: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const tenant = yield* createTenant
    const payments = yield* Payments
    const disputes = yield* Disputes
    const payment = yield* payments.create(tenant, { amount: 4000, currency: "EUR" as Currency, payment_method: { type: "card", token: "tok_visa" } })
    for (const index of order) {
      const applied = yield* disputes.applyFact(tenant, payment.provider, factOf(payment.provider_payment_id!, said[index]!, index))
      expect(applied).toBe("applied")
    }
    const latest = said[said.length - 1]!
    const listed = yield* disputes.list(tenant, { status: undefined, paymentId: payment.id, provider: undefined, dueBefore: undefined }, {
      limit: 10,
      startingAfter: undefined
    })
    expect(listed.data).toHaveLength(1)
    const dispute = listed.data[0]!
    expect([dispute.status, dispute.stage, dispute.amount]).toEqual([latest.status, latest.stage, latest.amount])
    expect(dispute.funds).toBe(fundsOf(latest.status, latest.stage))

    const after = yield* payments.retrieve(tenant, payment.id)
    expect(after.status).toBe("succeeded")
    expect(after.disputed).toBe(true)
    expect(after.amount_disputed).toBe(dispute.funds === "withdrawn" ? Math.min(latest.amount, 4000) : 0)

    const types = (yield* (yield* EventsRepository).listRecent(tenant, 1000))
      .filter((event) => (event.data.object as { id: string }).id === dispute.id)
      .map((event) => event.type)
    expect(types.filter((type) => type === "dispute.created")).toHaveLength(1)
    const withdrawn = types.filter((type) => type === "dispute.funds_withdrawn").length
    const reinstated = types.filter((type) => type === "dispute.funds_reinstated").length
    expect(withdrawn - reinstated).toBe(dispute.funds === "withdrawn" ? 1 : 0)
    // Every status the events name is one the machine reaches.
    for (const type of types) expect(type.startsWith("dispute.")).toBe(true)
  })

describe("disputes under any order of the PSP's news", () => {
  it("end in the state the latest fact says, with one creation and the money held back consistent", async () => {
    await fc.assert(
      fc.asyncProperty(
        deliveries,
        ([said, order]) => Effect.runPromise(run(said, order).pipe(Effect.provide(makeTestServices().layer), Effect.provide(TestContext.TestContext)))
      ),
      {
        numRuns: 80,
        examples: [
          // A `won` that arrives before its `created` is not lost.
          [[[{ status: "needs_response", stage: "chargeback", amount: 4000 }, { status: "won", stage: "chargeback", amount: 4000 }], [1, 0, 1]]],
          // A loss overturned at pre-arbitration, told backwards.
          [[[
            { status: "needs_response", stage: "chargeback", amount: 1000 },
            { status: "lost", stage: "chargeback", amount: 1000 },
            { status: "needs_response", stage: "pre_arbitration", amount: 1000 },
            { status: "won", stage: "pre_arbitration", amount: 1000 }
          ], [3, 2, 1, 0]]]
        ]
      }
    )
  })

  it("allows only the moves of its table", () => {
    expect(Either.isLeft(DisputeStateMachine.move("accepted", "won"))).toBe(true)
    expect(Either.isLeft(DisputeStateMachine.move(null, "won"))).toBe(true)
    expect(DisputeStateMachine.move("needs_response", "under_review").pipe(Either.map((move) => move.event))).toEqual(
      Either.right("dispute.evidence_submitted")
    )
    expect([...DisputeStateMachine.terminal].sort()).toEqual(["accepted", "expired"])
  })
})
