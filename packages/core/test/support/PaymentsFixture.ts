import { forkAndAdvance } from "@orchestrator/testing"
import { Effect, Fiber } from "effect"
import type { Currency } from "../../src/domain/Currency.js"
import type { CreatePayment } from "../../src/domain/payments/Payment.js"
import { AuthorizationOutcome } from "../../src/domain/providers/ConnectorOutcomes.js"
import type { Tenant } from "../../src/domain/Tenant.js"
import { Payments } from "../../src/features/payments/Payments.js"
import { EventsRepository } from "../../src/ports/EventsRepository.js"
import type { Script } from "./ScriptedConnector.js"
import { makeTestServices } from "./TestServices.js"

/** The payments tests' world: scripted PSP answers per token, a request, and a run on the in-memory services. */
export const card = { brand: "visa", last4: "4242", country: "US" }
export const declined = AuthorizationOutcome.Refused({
  pspPaymentId: "psp_declined",
  code: "card_declined",
  message: "Your card was declined.",
  retryable: false,
  card
})
export const processingError = AuthorizationOutcome.Refused({
  pspPaymentId: null,
  code: "processing_error",
  message: "Try again.",
  retryable: true,
  card
})
export const challenge = AuthorizationOutcome.ActionRequired({ pspPaymentId: "psp_3ds", redirectUrl: "https://psp/3ds", card })

export const scripts: Record<string, ReadonlyArray<Script>> = {
  tok_declined: [declined],
  tok_flaky: [processingError, AuthorizationOutcome.Authorized({ pspPaymentId: "psp_ok", captured: true, amountCaptured: 1050, card })],
  tok_broken: [processingError],
  tok_down: ["unavailable"],
  tok_3ds: [challenge],
  tok_slow: ["hang"],
  tok_lost: ["hang", AuthorizationOutcome.Authorized({ pspPaymentId: "psp_found", captured: true, amountCaptured: 1050, card })],
  tok_lostThenDown: ["hang", "unavailable"]
}

export const request = (token: string, extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 1050,
  currency: "EUR" as Currency,
  payment_method: { type: "card", token },
  return_url: "https://shop.example/back",
  ...extra
})

export const eventTypes = (tenant: Tenant, paymentId: string) =>
  Effect.map(
    Effect.flatMap(EventsRepository, (events) => events.listRecent(tenant, 100)),
    (events) =>
      events
        .filter((event) => (event.data.object as { id: string }).id === paymentId)
        .map((event) => event.type)
        .reverse()
  )

/** Creates a payment whose PSP call never answers: the timeout passes and it stays `processing`. */
export const createUnanswered = (tenant: Tenant, token: string) =>
  Effect.flatMap(
    Effect.flatMap(Payments, (payments) => forkAndAdvance(payments.create(tenant, request(token)), "31 seconds")),
    Fiber.join
  )

export const run = <A, E>(body: (services: ReturnType<typeof makeTestServices>) => Effect.Effect<A, E, any>) => {
  const services = makeTestServices(scripts)
  return body(services).pipe(Effect.provide(services.layer)) as Effect.Effect<A, E, never>
}
