import { Effect, Option } from "effect"
import type { Payment } from "../../domain/payments/Payment.js"
import type { Tenant } from "../../domain/Tenant.js"
import { CheckoutSessionsRepository } from "../../ports/CheckoutSessionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { Payments } from "../payments/Payments.js"
import { CheckoutRecords } from "./CheckoutRecords.js"
import { type CheckoutSessionCatchUp, settledBy } from "./CheckoutSessionCatchUp.js"

/**
 * The outbox consumer that settles a session from its payment's events (a 3D Secure challenge
 * completed while the customer never came back), so `checkout.session.completed` is sent without
 * anyone reading the session.
 */
export const makeCheckoutPaymentEvents = (catchUp: CheckoutSessionCatchUp) =>
  Effect.gen(function*() {
    const records = yield* CheckoutRecords
    const repository = yield* CheckoutSessionsRepository
    const payments = yield* Payments
    const transactions = yield* Transactions
    const { link } = catchUp

    /**
     * A payment made for a processing session moved: link it if the confirm that made it was cut short
     * before it could, and settle the session by it. News of an older payment changes nothing.
     */
    const follow = (tenant: Tenant, sessionId: string, paymentId: string) =>
      transactions.run(Effect.gen(function*() {
        const found = yield* repository.find(tenant, sessionId)
        if (Option.isNone(found) || found.value.status !== "processing") return
        const locked = yield* records.lock(tenant, sessionId)
        if (locked.status !== "processing") return
        if (locked.payment_id !== null && locked.payment_id !== paymentId) return
        const payment = yield* Effect.orDie(payments.retrieve(tenant, paymentId))
        const linked = yield* link(tenant, locked, payment)
        const to = settledBy(payment)
        if (to !== null) yield* records.move(tenant, linked, to)
      }))

    const consumer: EventConsumer = {
      name: "checkout-sessions",
      consume: (organizationId, event) => {
        if (!event.type.startsWith("payment.")) return Effect.void
        const payment = event.data.object as Payment
        const sessionId = payment.metadata?.checkout_session_id
        if (sessionId === undefined) return Effect.void
        return follow({ organizationId, livemode: event.livemode }, sessionId, payment.id)
      }
    }

    return consumer
  })
