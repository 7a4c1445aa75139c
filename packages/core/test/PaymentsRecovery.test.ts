import { describe, expect, it } from "@effect/vitest"
import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import { IdempotentRequests } from "@orchestrator/core/idempotency/IdempotentRequests"
import { PaymentRecovery } from "@orchestrator/core/payments/PaymentRecovery"
import { Payments } from "@orchestrator/core/payments/Payments"
import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { AuthorizationOutcome } from "@orchestrator/core/providers/PaymentConnector"
import { DateTime, Deferred, Duration, Effect, Fiber, Option, TestClock } from "effect"
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

  it.effect("a payment's key reserves its id: a run cut short before writing it, or stalled past its lock, never makes a second", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const idempotent = yield* IdempotentRequests
        const asResponse = Effect.map(Effect.orDie(payments.create(tenant, request("tok_visa"))), (payment) => ({
          status: 201,
          body: payment.id
        }))
        const key = { tenant, key: "create-1", fingerprint: "create", reserveId: "pay" as const }
        // The first run dies before it writes anything: the retry creates the payment, under the reserved id.
        const died = yield* Effect.exit(idempotent.execute(key, Effect.die("crash before the write")))
        expect(died._tag).toBe("Failure")
        const reserved = Option.getOrThrow(
          yield* (yield* IdempotencyKeysRepository).start(tenant, {
            key: "create-1",
            fingerprint: "create",
            resourceId: null,
            response: null,
            lockedUntil: null,
            lockToken: null,
            createdAt: yield* DateTime.now
          })
        ).resourceId
        expect(reserved).toMatch(/^pay_/)
        const retried = yield* idempotent.execute(key, asResponse)
        expect(retried.response.body).toBe(reserved)
        expect((yield* payments.retrieve(tenant, reserved!)).status).toBe("succeeded")

        // A run that stalls past its lock, while a retry takes the key over and creates the payment:
        // when the stalled run writes at last, the id is taken, and nothing more is made or charged.
        const gate = yield* Deferred.make<void>()
        const stalledKey = { ...key, key: "create-2" }
        const stalled = yield* Effect.fork(idempotent.execute(stalledKey, Effect.zipRight(Deferred.await(gate), asResponse)))
        yield* TestClock.adjust("3 minutes")
        const takenOver = yield* idempotent.execute(stalledKey, asResponse)
        yield* Deferred.succeed(gate, undefined)
        expect((yield* Fiber.await(stalled))._tag).toBe("Failure")
        const all = yield* payments.list(tenant, {}, { limit: 100, startingAfter: undefined })
        expect(all.data.map((payment) => payment.id).sort()).toEqual([reserved, takenOver.response.body].sort())
        expect(psp.calls).toHaveLength(2)
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
