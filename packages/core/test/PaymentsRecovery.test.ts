import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, Option, TestClock } from "effect"
import type { KeyedAnswer } from "../src/domain/idempotency/KeyRun.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { PaymentRecovery } from "../src/features/payments/PaymentRecovery.js"
import { Payments } from "../src/features/payments/Payments.js"
import { IdempotencyKeysRepository } from "../src/ports/IdempotencyKeysRepository.js"
import { PaymentsRepository } from "../src/ports/PaymentsRepository.js"
import { card, createUnanswered, request, run } from "./support/PaymentsFixture.js"
import { createTenant } from "./support/TestServices.js"

describe("Payments", () => {
  it.effect("keeps an unanswered payment processing; the worker's reconciliation settles it", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* createUnanswered(tenant, "tok_slow")
        expect(payment.status).toBe("processing")
        // No answer by the deadline: the outcome is unknown, for reconciliation to find out.
        expect([payment.attempts[0]!.status, payment.attempts[0]!.error_code]).toEqual(["unknown", "timeout"])

        const repository = yield* PaymentsRepository
        const claim = (minutes: number) =>
          Effect.flatMap(DateTime.now, (now) =>
            repository.claimDue(
              { _tag: "Unanswered", sentBefore: DateTime.subtract(now, { minutes: 2 }), callTimeout: Duration.seconds(30) },
              { now, until: DateTime.add(now, { minutes }), limit: 10 }
            )).pipe(Effect.map((claimed) => claimed.map(({ item }) => item)))
        // Too recent to reconcile: the request may still be running.
        expect(yield* claim(1)).toEqual([])

        yield* TestClock.adjust("3 minutes")
        psp.settleLater(payment.attempts[0]!.id, AuthorizationOutcome.Authorized({ pspPaymentId: "psp_late", captured: true, amountCaptured: 1050, card }))
        const claimed = yield* claim(1)
        expect(claimed.map((ref) => ref.paymentId)).toEqual([payment.id])
        // Leased: a second worker gets nothing.
        expect(yield* claim(1)).toEqual([])
        yield* (yield* PaymentRecovery).reconcile(claimed[0]!)
        const settled = yield* payments.retrieve(tenant, payment.id)
        expect(settled.status).toBe("succeeded")
        expect(settled.provider_payment_id).toBe("psp_late")
        expect([settled.attempts[0]!.status, settled.attempts[0]!.error_code]).toEqual(["succeeded", null])
      })
    ))

  it.effect("reconciles an attempt the PSP never answered by sending it again under the same reference", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* createUnanswered(tenant, "tok_lost")
        expect(payment.status).toBe("processing")
        yield* (yield* PaymentRecovery).reconcile({ tenant, paymentId: payment.id })
        const settled = yield* payments.retrieve(tenant, payment.id)
        expect(settled.status).toBe("succeeded")
        const reference = payment.attempts[0]!.id
        expect(psp.calls.map((call) => call.reference)).toEqual([reference, reference])
      })
    ))

  it.effect("keeps a resent attempt processing when the PSP is unreachable: the first send may have charged", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* createUnanswered(tenant, "tok_lostThenDown")
        yield* (yield* PaymentRecovery).reconcile({ tenant, paymentId: payment.id })
        const after = yield* payments.retrieve(tenant, payment.id)
        expect([after.status, after.attempts.map((attempt) => attempt.status)]).toEqual(["processing", ["unknown"]])
        const resumed = yield* payments.resume(tenant, payment.id)
        expect(resumed.status).toBe("processing")
      })
    ))

  it.effect("a payment under a key: one payment and one charge however its requests meet", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const keyed = (key: string) => ({ tenant, key, fingerprint: "create", requestId: null })
        const authorized = AuthorizationOutcome.Authorized({ pspPaymentId: "psp_late", captured: true, amountCaptured: 1050, card })
        const idOf = (answered: KeyedAnswer) => answered.answer._tag === "Succeeded" ? (JSON.parse(answered.answer.json) as { id: string }).id : ""

        // The retry of a request that finished replays its answer.
        const first = yield* payments.createUnderKey(tenant, request("tok_visa"), keyed("create-1"))
        const again = yield* payments.createUnderKey(tenant, request("tok_visa"), keyed("create-1"))
        expect([first.replayed, again.replayed, idOf(again)]).toEqual([false, true, idOf(first)])

        // A retry while the first request waits on its PSP: the key is in use; the first's payment is the
        // only one, and a retry after it replays its answer.
        const slow = yield* Effect.fork(payments.createUnderKey(tenant, request("tok_lost"), keyed("create-2")))
        yield* TestClock.adjust("1 second")
        expect((yield* Effect.flip(payments.createUnderKey(tenant, request("tok_lost"), keyed("create-2"))))._tag).toBe("IdempotencyKeyInUse")
        yield* TestClock.adjust("30 seconds")
        const waited = yield* Fiber.join(slow)
        const replayed = yield* payments.createUnderKey(tenant, request("tok_lost"), keyed("create-2"))
        expect(idOf(replayed)).toBe(idOf(waited))

        // A request whose process died after its first write (its key held, then its lock lapsed): the
        // retry finishes that very payment, sending its attempt again under the same reference.
        const keys = yield* IdempotencyKeysRepository
        const stalled = yield* Effect.fork(payments.createUnderKey(tenant, request("tok_slow"), keyed("create-3")))
        yield* TestClock.adjust("1 second")
        const held = Option.getOrThrow(yield* keys.find(tenant, "create-3"))
        yield* Fiber.interrupt(stalled)
        yield* TestClock.adjust("3 minutes")
        psp.settleLater(held.resourceId === null ? "" : (yield* payments.retrieve(tenant, held.resourceId)).attempts[0]!.id, authorized)
        const finished = yield* payments.createUnderKey(tenant, request("tok_slow"), keyed("create-3"))
        expect(idOf(finished)).toBe(held.resourceId)
        expect((yield* payments.retrieve(tenant, held.resourceId!)).status).toBe("succeeded")

        const all = yield* payments.list(tenant, {}, { limit: 100, startingAfter: undefined })
        expect(all.data.map((payment) => payment.id).sort()).toEqual([idOf(first), idOf(waited), held.resourceId!].sort())
        // One send per payment, and the resent one under its first reference.
        expect(new Set(psp.calls.map((call) => call.reference)).size).toBe(3)
      })
    ))

  it.effect("resumes an interrupted payment under the same PSP reference: one charge", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* createUnanswered(tenant, "tok_slow")
        const reference = payment.attempts[0]!.id
        psp.settleLater(reference, AuthorizationOutcome.Authorized({ pspPaymentId: "psp_once", captured: true, amountCaptured: 1050, card }))

        const resumed = yield* payments.resume(tenant, payment.id)
        expect(resumed.id).toBe(payment.id)
        expect(resumed.status).toBe("succeeded")
        expect(psp.calls.map((call) => call.reference)).toEqual([reference, reference])
        // Resuming a finished payment changes nothing and calls nobody.
        expect((yield* payments.resume(tenant, payment.id)).status).toBe("succeeded")
        expect(psp.calls).toHaveLength(2)
      })
    ))

  it.effect("follow-up releases authorizations after 7 days and abandoned 3D Secure after a day", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        const challenged = yield* payments.create(tenant, request("tok_3ds"))

        yield* TestClock.adjust("23 hours")
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: challenged.id })
        expect((yield* payments.retrieve(tenant, challenged.id)).status).toBe("requires_action")

        yield* TestClock.adjust("2 hours")
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: challenged.id })
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: authorized.id })
        const abandoned = yield* payments.retrieve(tenant, challenged.id)
        expect([abandoned.status, abandoned.failure?.code]).toEqual(["canceled", "action_expired"])
        expect((yield* payments.retrieve(tenant, authorized.id)).status).toBe("requires_capture")

        yield* TestClock.adjust("6 days")
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: authorized.id })
        const released = yield* payments.retrieve(tenant, authorized.id)
        expect([released.status, released.failure?.code]).toEqual(["canceled", "authorization_expired"])
      })
    ))

  it.effect("follow-up records a 3D Secure the customer completed without coming back, instead of canceling it", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const challenged = yield* payments.create(tenant, request("tok_3ds"))
        psp.settleLater(
          challenged.attempts[0]!.id,
          AuthorizationOutcome.Authorized({ pspPaymentId: "psp_3ds", captured: true, amountCaptured: 1050, card })
        )
        yield* TestClock.adjust("2 days")
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: challenged.id })
        const settled = yield* payments.retrieve(tenant, challenged.id)
        expect([settled.status, settled.amount_captured]).toEqual(["succeeded", 1050])
      })
    ))

  it.effect("follow-up records a capture the PSP made but whose answer was lost", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        psp.settleLater(
          authorized.attempts[0]!.id,
          AuthorizationOutcome.Authorized({ pspPaymentId: "psp_cap", captured: true, amountCaptured: 700, card })
        )
        yield* TestClock.adjust("8 days")
        yield* (yield* PaymentRecovery).followUp({ tenant, paymentId: authorized.id })
        const settled = yield* payments.retrieve(tenant, authorized.id)
        expect([settled.status, settled.amount_captured]).toEqual(["succeeded", 700])
      })
    ))
})
