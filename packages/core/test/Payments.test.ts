import { EventsRepository } from "@orchestrator/core/events/EventsRepository"
import type { CreatePayment } from "@orchestrator/core/payments/Payment"
import { PaymentRecovery } from "@orchestrator/core/payments/PaymentRecovery"
import { Payments } from "@orchestrator/core/payments/Payments"
import { IdempotencyKeysRepository } from "@orchestrator/core/idempotency/IdempotencyKeysRepository"
import { IdempotentRequests } from "@orchestrator/core/idempotency/IdempotentRequests"
import { PaymentsRepository } from "@orchestrator/core/payments/PaymentsRepository"
import { RETURN_SYNC_INTERVAL } from "@orchestrator/core/payments/ReturnSyncThrottle"
import { AuthorizationOutcome } from "@orchestrator/core/providers/PaymentConnector"
import type { Currency } from "@orchestrator/core/domain/Currency"
import type { Tenant } from "@orchestrator/core/domain/Tenant"
import { describe, expect, it } from "@effect/vitest"
import { forkAndAdvance } from "@orchestrator/testing/ClockSteps"
import { DateTime, Deferred, Effect, Fiber, Option, TestClock } from "effect"
import { createTenant, makeTestServices } from "./support/TestServices.js"
import type { Script } from "./support/ScriptedConnector.js"

const card = { brand: "visa", last4: "4242", country: "US" }
const declined = AuthorizationOutcome.Refused({
  pspPaymentId: "psp_declined",
  code: "card_declined",
  message: "Your card was declined.",
  retryable: false,
  card
})
const processingError = AuthorizationOutcome.Refused({
  pspPaymentId: null,
  code: "processing_error",
  message: "Try again.",
  retryable: true,
  card
})
const challenge = AuthorizationOutcome.ActionRequired({ pspPaymentId: "psp_3ds", redirectUrl: "https://psp/3ds", card })

const scripts: Record<string, ReadonlyArray<Script>> = {
  tok_declined: [declined],
  tok_flaky: [processingError, AuthorizationOutcome.Authorized({ pspPaymentId: "psp_ok", captured: true, amountCaptured: 1050, card })],
  tok_broken: [processingError],
  tok_down: ["unavailable"],
  tok_3ds: [challenge],
  tok_slow: ["hang"],
  tok_lost: ["hang", AuthorizationOutcome.Authorized({ pspPaymentId: "psp_found", captured: true, amountCaptured: 1050, card })],
  tok_lostThenDown: ["hang", "unavailable"]
}

const request = (token: string, extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 1050,
  currency: "EUR" as Currency,
  payment_method: { type: "card", token },
  return_url: "https://shop.example/back",
  ...extra
})

const eventTypes = (tenant: Tenant, paymentId: string) =>
  Effect.map(
    Effect.flatMap(EventsRepository, (events) => events.listRecent(tenant, 100)),
    (events) =>
      events
        .filter((event) => (event.data.object as { id: string }).id === paymentId)
        .map((event) => event.type)
        .reverse()
  )

/** Creates a payment whose PSP call never answers: the timeout passes and it stays `processing`. */
const createUnanswered = (tenant: Tenant, token: string) =>
  Effect.flatMap(
    Effect.flatMap(Payments, (payments) => forkAndAdvance(payments.create(tenant, request(token)), "31 seconds")),
    Fiber.join
  )

const run = <A, E>(body: (services: ReturnType<typeof makeTestServices>) => Effect.Effect<A, E, any>) => {
  const services = makeTestServices(scripts)
  return body(services).pipe(Effect.provide(services.layer)) as Effect.Effect<A, E, never>
}

describe("Payments", () => {
  it.effect("charges a card and records created, processing and succeeded in order", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const payment = yield* payments.create(tenant, request("tok_visa"))
        expect(payment.status).toBe("succeeded")
        expect(payment.amount_captured).toBe(1050)
        expect(payment.provider).toBe("sandbox_a")
        expect(payment.payment_method.last4).toBe("4242")
        expect(payment.attempts).toHaveLength(1)
        expect(payment.attempts[0]!.status).toBe("succeeded")
        expect(payment.attempts[0]!.latency_ms).toBe(0)
        expect(yield* eventTypes(tenant, payment.id)).toEqual([
          "payment.created",
          "payment.processing",
          "payment.succeeded"
        ])
      })
    ))

  it.effect("reports a decline as a failed payment, and never retries it", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_declined")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect(error.payment.status).toBe("failed")
        expect(error.payment.failure).toEqual({ code: "card_declined", message: "Your card was declined." })
        expect(error.payment.attempts).toHaveLength(1)
        expect(psp.calls).toHaveLength(1)
      })
    ))

  it.effect("retries a processing error once, under a new PSP reference", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payment = yield* (yield* Payments).create(tenant, request("tok_flaky"))
        expect(payment.status).toBe("succeeded")
        expect(payment.attempts.map((attempt) => [attempt.status, attempt.error_code])).toEqual([
          ["failed", "processing_error"],
          ["succeeded", null]
        ])
        expect(new Set(psp.calls.map((call) => call.reference)).size).toBe(2)
      })
    ))

  it.effect("gives up after the second processing error", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_broken")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect(error.payment.status).toBe("failed")
        expect(error.payment.attempts).toHaveLength(2)
      })
    ))

  it.effect("fails the payment (402, saved) when the PSP refuses connections, after one retry", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip((yield* Payments).create(tenant, request("tok_down")))
        expect(error._tag).toBe("PaymentRefused")
        if (error._tag !== "PaymentRefused") return
        expect([error.code, error.payment.status]).toEqual(["provider_unavailable", "failed"])
        expect(psp.calls).toHaveLength(2)
      })
    ))

  it.effect("waits for 3D Secure, then settles when the customer returns", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const pending = yield* payments.create(tenant, request("tok_3ds"))
        expect(pending.status).toBe("requires_action")
        expect(pending.next_action).toEqual({ type: "redirect", url: "https://psp/3ds" })

        const token = psp.returnTokenOf(pending.id)
        // Back before finishing the challenge: nothing changes.
        expect((yield* payments.returnFromAction(pending.id, token)).status).toBe("requires_action")

        psp.settleLater(
          pending.attempts[0]!.id,
          AuthorizationOutcome.Authorized({ pspPaymentId: "psp_3ds", captured: true, amountCaptured: 1050, card })
        )
        // The PSP is asked again once the interval since the last return has passed.
        yield* TestClock.adjust(RETURN_SYNC_INTERVAL)
        const done = yield* payments.returnFromAction(pending.id, token)
        expect(done.status).toBe("succeeded")
        expect(done.next_action).toBeNull()
        // A second return (reload) changes nothing.
        expect((yield* payments.returnFromAction(pending.id, token)).status).toBe("succeeded")
        expect(yield* eventTypes(tenant, pending.id)).toEqual([
          "payment.created",
          "payment.processing",
          "payment.requires_action",
          "payment.processing",
          "payment.succeeded"
        ])
      })
    ))

  it.effect("cancels a payment that needs 3D Secure but has no return_url", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const error = yield* Effect.flip(
          (yield* Payments).create(tenant, { ...request("tok_3ds"), return_url: undefined } as CreatePayment)
        )
        expect(error._tag).toBe("ReturnUrlRequired")
        if (error._tag !== "ReturnUrlRequired") return
        expect(error.payment.status).toBe("canceled")
        expect(error.payment.failure?.code).toBe("return_url_required")
      })
    ))

  it.effect("authorizes for manual capture and captures less than authorized", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        expect(authorized.status).toBe("requires_capture")
        expect(authorized.amount_captured).toBe(0)

        const tooMuch = yield* Effect.flip(payments.capture(tenant, authorized.id, { amount: 1051 }))
        expect(tooMuch).toMatchObject({ _tag: "AmountTooLarge", param: "amount", maximum: 1050 })

        const captured = yield* payments.capture(tenant, authorized.id, { amount: 800 })
        expect(captured.status).toBe("succeeded")
        expect(captured.amount_captured).toBe(800)

        const again = yield* Effect.flip(payments.capture(tenant, authorized.id, {}))
        expect(again._tag).toBe("PaymentStateConflict")
      })
    ))

  it.effect("reports a capture the PSP did not answer as timed out, and leaves the payment as it was", () =>
    run(({ psp }) =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        psp.setCaptureHangs(true)
        const fiber = yield* Effect.fork(Effect.flip(payments.capture(tenant, authorized.id, {})))
        yield* TestClock.adjust("31 seconds")
        const error = yield* Fiber.join(fiber)
        expect(error).toMatchObject({ _tag: "ProviderUnreachable", timedOut: true })
        expect((yield* payments.retrieve(tenant, authorized.id)).status).toBe("requires_capture")
        psp.setCaptureHangs(false)
        expect((yield* payments.capture(tenant, authorized.id, {})).status).toBe("succeeded")
      })
    ))

  it.effect("cancels an authorization, and refuses to cancel a settled payment", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
        const canceled = yield* payments.cancel(tenant, authorized.id, {})
        expect(canceled.status).toBe("canceled")
        const charged = yield* payments.create(tenant, request("tok_visa"))
        expect((yield* Effect.flip(payments.cancel(tenant, charged.id, {})))._tag).toBe("PaymentStateConflict")
      })
    ))

  it.effect("a capture or cancel cut short after it committed: the retry under its key gets the payment, not a 409", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const idempotent = yield* IdempotentRequests
        const asResponse = (payment: { readonly status: string; readonly amount_captured: number }) => ({
          status: 200,
          body: `${payment.status}:${payment.amount_captured}`
        })
        for (const action of ["capture", "cancel"] as const) {
          const authorized = yield* payments.create(tenant, request("tok_visa", { capture: false }))
          const run = () =>
            action === "capture" ? payments.capture(tenant, authorized.id, { amount: 700 }) : payments.cancel(tenant, authorized.id, {})
          const key = { tenant, key: `${action}-${authorized.id}`, fingerprint: action }
          // The move commits, then the process dies before the answer is stored.
          const crashed = yield* Effect.exit(idempotent.execute(key, Effect.zipRight(Effect.orDie(run()), Effect.die("crash"))))
          expect(crashed._tag).toBe("Failure")
          const retried = yield* idempotent.execute(key, Effect.map(Effect.orDie(run()), asResponse))
          expect(retried.response.body).toBe(action === "capture" ? "succeeded:700" : "canceled:0")
          // Another key asking again is still told the payment has moved on.
          const other = yield* Effect.flip(run())
          expect(other._tag).toBe("PaymentStateConflict")
        }
      })
    ))

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
              { _tag: "Unanswered", sentBefore: DateTime.subtract(now, { minutes: 2 }) },
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
        const reserved = Option.getOrThrow(yield* (yield* IdempotencyKeysRepository).start(tenant, {
          key: "create-1",
          fingerprint: "create",
          resourceId: null,
          response: null,
          lockedUntil: null,
          lockToken: null,
          createdAt: yield* DateTime.now
        })).resourceId
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

  it.effect("keeps tenants apart: another organization or mode cannot see a payment", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const other = yield* createTenant
        const payments = yield* Payments
        const payment = yield* payments.create(tenant, request("tok_visa"))
        expect((yield* Effect.flip(payments.retrieve(other, payment.id)))._tag).toBe("PaymentNotFound")
        expect((yield* Effect.flip(payments.retrieve({ ...tenant, livemode: true }, payment.id)))._tag).toBe(
          "PaymentNotFound"
        )
      })
    ))

  it.effect("refuses a provider the organization does not have, and live mode without a default", () =>
    run(() =>
      Effect.gen(function*() {
        const tenant = yield* createTenant
        const payments = yield* Payments
        const unknown = yield* Effect.flip(payments.create(tenant, request("tok_visa", { provider: "stripe" })))
        expect(unknown).toMatchObject({ _tag: "ProviderNotUsable", provider: "stripe" })
        const live = yield* Effect.flip(payments.create({ ...tenant, livemode: true }, request("tok_visa")))
        expect(live._tag).toBe("NoProviderAvailable")
      })
    ))
})
