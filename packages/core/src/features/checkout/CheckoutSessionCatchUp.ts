import { DateTime, Effect } from "effect"
import { CheckoutSession, type CheckoutSessionRecord, toPublic } from "../../domain/checkout/CheckoutSession.js"
import { clientSecretOf } from "../../domain/checkout/ClientSecrets.js"
import type { Payment } from "../../domain/payments/Payment.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now, plusMillis } from "../../domain/Timestamp.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { Transactions } from "../../ports/Transactions.js"
import { Payments } from "../payments/Payments.js"
import { CheckoutRecords } from "./CheckoutRecords.js"

/** How long a confirm may run before a session it left `processing` without a payment is given up. */
const ABANDONED_CONFIRM_MILLIS = 2 * 60 * 1000

/** Where a payment's outcome takes a processing session; `null` while it is still undecided. */
export const settledBy = (payment: Payment | null) => {
  if (payment === null) return "payment_failed" as const
  switch (payment.status) {
    case "succeeded":
    case "requires_capture":
      return "complete" as const
    case "failed":
    case "canceled":
      return "payment_failed" as const
    default:
      return null
  }
}

/**
 * What every use case of a session starts from: the session caught up with time (expiry) and with
 * its payment (a 3D Secure challenge that ended meanwhile), and its views.
 */
export const makeCheckoutSessionCatchUp = Effect.gen(function*() {
  const records = yield* CheckoutRecords
  const payments = yield* Payments
  const transactions = yield* Transactions
  const { clientSecretDerivation } = yield* KeyMaterial

  /** The full view: the record with its client secret, made again from the id. */
  const withSecret = (session: CheckoutSessionRecord, payment: Payment | null = null) =>
    Effect.map(
      clientSecretOf(clientSecretDerivation, session.id),
      (client_secret) => new CheckoutSession({ ...session, payment, client_secret })
    )

  const paymentOf = (tenant: Tenant, session: CheckoutSessionRecord): Effect.Effect<Payment | null> =>
    session.payment_id === null
      ? Effect.succeed(null)
      : Effect.orDie(payments.retrieve(tenant, session.payment_id))

  /** Records `payment` as the session's latest, once (the confirm and the outbox may both bring it). */
  const link = (tenant: Tenant, session: CheckoutSessionRecord, payment: Payment) =>
    session.payment_ids.includes(payment.id)
      ? Effect.succeed(session)
      : records.save(tenant, session, { payment_id: payment.id, payment_ids: [...session.payment_ids, payment.id] })

  /** The session as it stands now: expired once its time is up, settled once its payment is. */
  const current = (tenant: Tenant, id: string) =>
    Effect.gen(function*() {
      const session = yield* records.load(tenant, id)
      if (session.status === "open" || session.status === "payment_failed") {
        if (!DateTime.lessThan(yield* now, session.expires_at)) {
          return yield* records.moveIfStill(tenant, id, ["open", "payment_failed"], "expired", () => ({}))
        }
        return session
      }
      if (session.status === "processing" && session.payment_id !== null) {
        const to = settledBy(yield* paymentOf(tenant, session))
        if (to !== null) return yield* records.moveIfStill(tenant, id, "processing", to, () => ({}))
      }
      // A confirm whose process died before it made a payment: after the longest a request may run,
      // nothing will come, and the customer may try again elsewhere.
      if (
        session.status === "processing" && session.payment_id === null &&
        !DateTime.lessThan(yield* now, plusMillis(session.updated_at, ABANDONED_CONFIRM_MILLIS))
      ) {
        return yield* transactions.run(Effect.gen(function*() {
          const locked = yield* records.lock(tenant, id)
          const abandoned = locked.status === "processing" && locked.payment_id === null
          return abandoned ? yield* records.move(tenant, locked, "payment_failed") : locked
        }))
      }
      return session
    })

  const publicOf = (tenant: Tenant, session: CheckoutSessionRecord) => Effect.map(paymentOf(tenant, session), (payment) => toPublic(session, payment))

  return { withSecret, paymentOf, publicOf, link, current }
})

export type CheckoutSessionCatchUp = Effect.Effect.Success<typeof makeCheckoutSessionCatchUp>
