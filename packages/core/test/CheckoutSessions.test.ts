import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, TestClock } from "effect"
import * as fc from "fast-check"
import type { CheckoutSessionStatus } from "../src/domain/checkout/CheckoutSession.js"
import { CheckoutSessionStateMachine } from "../src/domain/checkout/CheckoutSessionStateMachine.js"
import type { Currency } from "../src/domain/Currency.js"
import { AuthorizationOutcome } from "../src/domain/providers/ConnectorOutcomes.js"
import { CheckoutRecords } from "../src/features/checkout/CheckoutRecords.js"
import { CheckoutSessions } from "../src/features/checkout/CheckoutSessions.js"
import { ProviderConnections } from "../src/features/connections/ProviderConnections.js"
import { EventDispatch } from "../src/features/events/EventDispatch.js"
import { Events } from "../src/features/events/Events.js"
import { Payments } from "../src/features/payments/Payments.js"
import { Organizations } from "../src/features/tenancy/Organizations.js"
import { CheckoutSessionsRepository } from "../src/ports/CheckoutSessionsRepository.js"
import { createTenant, makeTestServices } from "./support/TestServices.js"

const card = { brand: "visa", last4: "0002", country: "US" }
const declined = AuthorizationOutcome.Refused({
  pspPaymentId: "psp_declined",
  code: "card_declined",
  message: "Your card was declined.",
  retryable: false,
  card
})
const challenge = AuthorizationOutcome.ActionRequired({
  pspPaymentId: "psp_3ds",
  redirectUrl: "https://psp.test/3ds",
  card
})
const scripts = { tok_decline: [declined], tok_3ds: [challenge] }

const sessionInput = {
  amount: 2500,
  currency: "EUR" as Currency,
  success_url: "https://shop.test/success?session={CHECKOUT_SESSION_ID}",
  cancel_url: "https://shop.test/cart"
}

const setup = Effect.gen(function*() {
  const tenant = yield* createTenant
  const checkout = yield* CheckoutSessions
  const session = yield* checkout.create(tenant, sessionInput)
  return { tenant, checkout, session }
})

const pay = (token: string) => ({ payment_method: { type: "card" as const, token } })

describe("Checkout sessions", () => {
  it.effect("a session opens on the default provider, and a good card completes it with its payment", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      expect(session.status).toBe("open")
      // Shoppers see who they pay (the organization's name, its display name by default) and no
      // provider name unless the connection has a display name: never the connection's name.
      expect(session.ui).toEqual({
        merchant_name: expect.stringMatching(/^Acme \d+$/),
        provider: "sandbox_a",
        display_name: null,
        type: "sandbox",
        publishable_key: null,
        // The sandbox keeps its own card form: its test cards script its answers.
        card_form_url: null,
        methods: ["card"]
      })
      expect(session.client_secret.startsWith(`${session.id}_secret_`)).toBe(true)
      expect(session.expires_at.epochMillis - session.created_at.epochMillis).toBe(86_400_000)

      const confirmed = yield* checkout.confirm(tenant, session.id, pay("tok_visa"))
      expect(confirmed.status).toBe("complete")
      expect(confirmed.payment?.status).toBe("succeeded")
      expect(Object.keys(confirmed).sort()).toEqual([
        "allowed_methods",
        "amount",
        "cancel_url",
        "currency",
        "expires_at",
        "id",
        "locale",
        "object",
        "payment",
        "return_url",
        "status",
        "success_url",
        "ui"
      ])
      const full = yield* checkout.retrieve(tenant, session.id, { expandPayment: true })
      expect(full.payment?.metadata).toEqual({ checkout_session_id: session.id })
      expect(full.payment_ids).toEqual([confirmed.payment!.id])

      const types =
        (yield* (yield* Events).list(tenant, { type: undefined, createdGte: undefined, createdLte: undefined }, { limit: 50, startingAfter: undefined }))
          .data.map((event) => event.type).filter((type) => type.startsWith("checkout."))
      expect(types.reverse()).toEqual(["checkout.session.created", "checkout.session.processing", "checkout.session.completed"])
      const completed = (yield* (yield* Events).list(tenant, { type: "checkout.session.completed", createdGte: undefined, createdLte: undefined }, {
        limit: 1,
        startingAfter: undefined
      })).data[0]!
      expect("client_secret" in (completed.data.object as object)).toBe(false)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a declined card fails the session; reroute reopens it on the other provider, which is paid", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const failed = yield* checkout.confirm(tenant, session.id, pay("tok_decline"))
      expect(failed.status).toBe("payment_failed")
      expect(failed.payment?.failure?.code).toBe("card_declined")

      const again = yield* Effect.flip(checkout.confirm(tenant, session.id, pay("tok_visa")))
      expect(again._tag).toBe("CheckoutSessionStateConflict")

      const reopened = yield* checkout.reroute(tenant, session.id, { exclude_provider: "sandbox_a" })
      expect([reopened.status, reopened.ui.provider, reopened.payment]).toEqual(["open", "sandbox_b", null])

      const paid = yield* checkout.confirm(tenant, session.id, pay("tok_visa"))
      expect([paid.status, paid.payment?.provider]).toEqual(["complete", "sandbox_b"])
      const full = yield* checkout.retrieve(tenant, session.id)
      const payments = yield* Payments
      const made = yield* Effect.forEach(full.payment_ids, (id) => payments.retrieve(tenant, id))
      expect(made.map((payment) => [payment.provider, payment.status])).toEqual([
        ["sandbox_a", "failed"],
        ["sandbox_b", "succeeded"]
      ])
      expect(full.excluded_providers).toEqual(["sandbox_a"])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("shoppers see the merchant's display name of the session's mode: its name until one is set, the new one from the next session or reroute", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const organizations = yield* Organizations
      const name = (yield* organizations.settings(tenant)).name
      expect(session.ui.merchant_name).toBe(name)
      // Set in live mode, it changes nothing a test shopper sees.
      yield* organizations.updateSettings({ ...tenant, livemode: true }, { display_name: "Acme Live" })
      expect((yield* organizations.settings(tenant)).display_name).toBe(name)
      yield* organizations.updateSettings(tenant, { display_name: "Acme Shop" })
      expect((yield* checkout.create(tenant, sessionInput)).ui.merchant_name).toBe("Acme Shop")
      yield* checkout.confirm(tenant, session.id, pay("tok_decline"))
      expect((yield* checkout.reroute(tenant, session.id, {})).ui.merchant_name).toBe("Acme Shop")
      // null gives the organization's name back.
      expect((yield* organizations.updateSettings(tenant, { display_name: null })).display_name).toBe(name)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("reroute with no other eligible provider answers NoProviderAvailable and leaves the session failed", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const connections = yield* ProviderConnections
      const b = (yield* connections.list(tenant, { limit: 10, startingAfter: undefined })).data.find((c) => c.name === "sandbox_b")!
      yield* connections.update(tenant, b.id, { status: "disabled" })
      yield* checkout.confirm(tenant, session.id, pay("tok_decline"))
      const error = yield* Effect.flip(checkout.reroute(tenant, session.id, {}))
      expect(error._tag).toBe("NoProviderAvailable")
      expect((yield* checkout.retrieve(tenant, session.id)).status).toBe("payment_failed")
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a 3D Secure payment keeps the session processing until the payment settles", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const pending = yield* checkout.confirm(tenant, session.id, pay("tok_3ds"))
      expect(pending.status).toBe("processing")
      expect(pending.payment?.next_action?.url).toBe("https://psp.test/3ds")
      const payment = yield* (yield* Payments).retrieve(tenant, pending.payment!.id)
      expect(payment.return_url).toBe(`http://orchestrator.test/checkout/${session.id}`)
      yield* (yield* Payments).cancel(tenant, payment.id, {})
      expect((yield* checkout.retrievePublic(tenant, session.id)).status).toBe("payment_failed")
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a payment settled out of band (the customer never came back) completes its session from the outbox", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const pending = yield* checkout.confirm(tenant, session.id, pay("tok_3ds"))
      const payments = yield* Payments
      const payment = yield* payments.retrieve(tenant, pending.payment!.id)
      services.psp.settleLater(
        payment.attempts.at(-1)!.id,
        AuthorizationOutcome.Authorized({ pspPaymentId: "psp_3ds", captured: true, amountCaptured: 2500, card })
      )
      expect((yield* payments.returnFromAction(payment.id, services.psp.returnTokenOf(payment.id))).status).toBe("succeeded")
      const repository = yield* CheckoutSessionsRepository
      const stored = () => Effect.map(repository.find(tenant, session.id), Option.getOrThrow)
      expect((yield* stored()).status).toBe("processing")
      yield* (yield* EventDispatch).dispatchDue
      expect((yield* stored()).status).toBe("complete")
      const completed = yield* (yield* Events).list(tenant, { type: "checkout.session.completed", createdGte: undefined, createdLte: undefined }, {
        limit: 5,
        startingAfter: undefined
      })
      expect(completed.data.map((event) => (event.data.object as { id: string }).id)).toEqual([session.id])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a confirm cut short after its payment was made: the outbox links the payment and settles the session", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      // What a confirm had done when its process died: the session taken, the payment made, not linked.
      yield* (yield* CheckoutRecords).moveIfStill(tenant, session.id, "open", "processing", () => ({}))
      const payment = yield* (yield* Payments).create(tenant, {
        amount: session.amount,
        currency: session.currency,
        payment_method: { type: "card", token: "tok_visa" },
        provider: "sandbox_a",
        metadata: { checkout_session_id: session.id }
      })
      yield* (yield* EventDispatch).dispatchDue
      const settled = yield* checkout.retrieve(tenant, session.id)
      expect([settled.status, settled.payment_id, settled.payment_ids]).toEqual(["complete", payment.id, [payment.id]])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("a confirm cut short before any payment was made: after two minutes the customer may try elsewhere", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      yield* (yield* CheckoutRecords).moveIfStill(tenant, session.id, "open", "processing", () => ({}))
      yield* TestClock.adjust("119 seconds")
      expect((yield* checkout.retrieve(tenant, session.id)).status).toBe("processing")
      yield* TestClock.adjust("1 second")
      expect((yield* checkout.retrievePublic(tenant, session.id)).status).toBe("payment_failed")
      const reopened = yield* checkout.reroute(tenant, session.id, {})
      expect([reopened.status, reopened.ui.provider]).toEqual(["open", "sandbox_b"])
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("sessions expire at expires_at: on read, and by the worker's job", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const tenant = yield* createTenant
      const checkout = yield* CheckoutSessions
      const short = yield* checkout.create(tenant, { ...sessionInput, expires_in: 1800 })
      const failed = yield* checkout.create(tenant, { ...sessionInput, expires_in: 3600 })
      yield* checkout.confirm(tenant, failed.id, pay("tok_decline"))
      yield* TestClock.adjust("1799 seconds")
      expect((yield* checkout.retrieve(tenant, short.id)).status).toBe("open")
      yield* TestClock.adjust("1 second")
      expect((yield* checkout.retrievePublic(tenant, short.id)).status).toBe("expired")
      yield* TestClock.adjust("1800 seconds")
      const job = checkout.jobs.find((candidate) => candidate.name === "expire-checkout-sessions")!
      expect(yield* job.run).toBe(1)
      expect((yield* checkout.retrieve(tenant, failed.id)).status).toBe("expired")
      const error = yield* Effect.flip(checkout.confirm(tenant, failed.id, pay("tok_visa")))
      expect(error._tag).toBe("CheckoutSessionStateConflict")
      const types = (yield* (yield* Events).list(tenant, { type: "checkout.session.expired", createdGte: undefined, createdLte: undefined }, {
        limit: 10,
        startingAfter: undefined
      })).data
      expect(types.length).toBe(2)
    }).pipe(Effect.provide(services.layer))
  })

  it.effect("the client secret opens its own session only; anything else is rejected alike", () => {
    const services = makeTestServices(scripts)
    return Effect.gen(function*() {
      const { checkout, session, tenant } = yield* setup
      const other = yield* checkout.create(tenant, sessionInput)
      expect(yield* checkout.authenticate(session.client_secret)).toEqual({ tenant, sessionId: session.id })
      const forged = `${session.id}_secret_${other.client_secret.split("_secret_")[1]}`
      for (const secret of [forged, "", "sk_test_x", `${session.id}_secret_`, `cs_UNKNOWN_secret_ABC`]) {
        expect((yield* Effect.flip(checkout.authenticate(secret)))._tag).toBe("ClientSecretRejected")
      }
    }).pipe(Effect.provide(services.layer))
  })

  describe("the status machine, driven by random customers", () => {
    type Step = "pay" | "decline" | "cancel" | "reroute" | "expire"
    /** What decisions §12 says each step does, from each status: the next status, or a refusal. */
    const model = (status: CheckoutSessionStatus, step: Step, rerouted: number): CheckoutSessionStatus | "conflict" | "no_provider" => {
      switch (step) {
        case "pay":
          return status === "open" ? "complete" : "conflict"
        case "decline":
          return status === "open" ? "payment_failed" : "conflict"
        case "cancel":
          return status === "open" || status === "payment_failed" ? "cancelled" : "conflict"
        case "reroute":
          return status !== "payment_failed" ? "conflict" : rerouted >= 1 ? "no_provider" : "open"
        case "expire":
          return status === "open" || status === "payment_failed" ? "expired" : status
      }
    }
    const steps = fc.array(fc.constantFrom<Step>("pay", "decline", "cancel", "reroute", "expire"), { minLength: 1, maxLength: 8 })

    it.effect("every sequence of steps ends where the model says, with a legal move for each change", () =>
      Effect.forEach(fc.sample(steps, { numRuns: 40, seed: 9 }), (sequence) => {
        const services = makeTestServices(scripts)
        return Effect.gen(function*() {
          const { checkout, session, tenant } = yield* setup
          let status: CheckoutSessionStatus = "open"
          let rerouted = 0
          for (const step of sequence) {
            const expected = model(status, step, rerouted)
            const run: Effect.Effect<{ readonly status: CheckoutSessionStatus }, { readonly _tag: string }> = step === "pay"
              ? checkout.confirm(tenant, session.id, pay("tok_visa"))
              : step === "decline"
              ? checkout.confirm(tenant, session.id, pay("tok_decline"))
              : step === "cancel"
              ? checkout.cancel(tenant, session.id)
              : step === "reroute"
              ? checkout.reroute(tenant, session.id, {})
              : Effect.zipRight(TestClock.adjust("25 hours"), checkout.retrievePublic(tenant, session.id))
            const result = yield* Effect.either(run)
            if (expected === "conflict") {
              expect(Either.isLeft(result) && result.left._tag).toBe("CheckoutSessionStateConflict")
            } else if (expected === "no_provider") {
              expect(Either.isLeft(result) && result.left._tag).toBe("NoProviderAvailable")
            } else {
              expect(Either.isRight(result) && result.right.status).toBe(expected)
              if (expected !== status && expected !== "complete" && expected !== "payment_failed") {
                expect(Either.isRight(CheckoutSessionStateMachine.move(status, expected))).toBe(true)
              }
              if (step === "reroute") rerouted++
              status = expected
            }
          }
          expect((yield* checkout.retrieve(tenant, session.id)).status).toBe(status)
        }).pipe(Effect.provide(services.layer))
      }, { discard: true }))
  })
})
