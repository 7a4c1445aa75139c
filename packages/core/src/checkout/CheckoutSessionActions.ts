import { Effect } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import type { Payment } from "../payments/Payment.js"
import { Payments } from "../payments/Payments.js"
import { PublicUrls } from "../ports/PublicUrls.js"
import { Transactions } from "../ports/Transactions.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { type ConfirmCheckout, type RerouteCheckout, toPublic } from "./CheckoutSession.js"
import { type CheckoutSessionCatchUp, settledBy, uiOf } from "./CheckoutSessionCatchUp.js"
import { CheckoutSessionStateConflict } from "./CheckoutErrors.js"
import { CheckoutRecords } from "./CheckoutRecords.js"

/**
 * What the customer's browser does to a session: confirm it with a provider's token (one payment),
 * reroute it to another provider after a rejection, cancel it.
 */
export const makeCheckoutSessionActions = (catchUp: CheckoutSessionCatchUp) =>
  Effect.gen(function*() {
    const records = yield* CheckoutRecords
    const payments = yield* Payments
    const resolution = yield* ProviderResolution
    const transactions = yield* Transactions
    const urls = yield* PublicUrls
    const { current, link, publicOf } = catchUp

    const confirm = Effect.fn("CheckoutSessions.confirm")(function*(tenant: Tenant, id: string, input: ConfirmCheckout) {
      yield* current(tenant, id)
      // Taken in a transaction of its own: two confirmations racing, only one pays.
      const session = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lock(tenant, id)
        if (locked.status !== "open") return yield* new CheckoutSessionStateConflict({ session: locked, action: "confirm" })
        return yield* records.move(tenant, locked, "processing")
      }))
      // The way back from a 3D Secure challenge: the merchant's page with the drop-in, else the hosted
      // page. Never the client secret: the payment (and its events) would carry it; the drop-in keeps
      // it in the tab's session storage for the way back instead.
      const returnUrl = session.return_url?.split("{CHECKOUT_SESSION_ID}").join(session.id) ??
        urls.checkoutPage(session.id)
      const made = yield* payments.create(tenant, {
        amount: session.amount,
        currency: session.currency,
        payment_method: input.payment_method,
        provider: session.ui.provider,
        ...(session.customer_id === null ? {} : { customer_id: session.customer_id }),
        return_url: returnUrl,
        metadata: { checkout_session_id: session.id }
      }).pipe(
        Effect.map((payment): Payment | null => payment),
        Effect.catchTags({
          PaymentRefused: (error) => Effect.succeed(error.payment),
          ReturnUrlRequired: (error) => Effect.succeed(error.payment),
          // The provider went away between the session's creation and now: a rejection like any other.
          ProviderNotUsable: () => Effect.succeed(null),
          NoProviderAvailable: () => Effect.succeed(null)
        })
      )
      const settled = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lock(tenant, id)
        const linked = made === null ? locked : yield* link(tenant, locked, made)
        const to = settledBy(made)
        return to === null || linked.status !== "processing" ? linked : yield* records.move(tenant, linked, to)
      }))
      return toPublic(settled, made)
    })

    const cancel = Effect.fn("CheckoutSessions.cancel")(function*(tenant: Tenant, id: string) {
      yield* current(tenant, id)
      const cancelled = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lock(tenant, id)
        if (locked.status !== "open" && locked.status !== "payment_failed") {
          return yield* new CheckoutSessionStateConflict({ session: locked, action: "cancel" })
        }
        return yield* records.move(tenant, locked, "cancelled")
      }))
      return yield* publicOf(tenant, cancelled)
    })

    const reroute = Effect.fn("CheckoutSessions.reroute")(function*(tenant: Tenant, id: string, input: RerouteCheckout) {
      const session = yield* current(tenant, id)
      if (session.status !== "payment_failed") {
        return yield* new CheckoutSessionStateConflict({ session, action: "reroute" })
      }
      const excluded = [...new Set([
        ...session.excluded_providers,
        session.ui.provider,
        ...(input.exclude_provider === undefined ? [] : [input.exclude_provider])
      ])]
      const connection = yield* resolution.forCheckout(tenant, {
        amount: session.amount,
        currency: session.currency,
        method: session.allowed_methods?.[0] ?? "card",
        country: session.country
      }, excluded)
      const reopened = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lock(tenant, id)
        if (locked.status !== "payment_failed") {
          return yield* new CheckoutSessionStateConflict({ session: locked, action: "reroute" })
        }
        return yield* records.move(tenant, locked, "open", {
          ui: uiOf(connection, locked.allowed_methods),
          excluded_providers: excluded
        })
      }))
      // The failed payment stays on the session's record; the reopened session shows none.
      return toPublic(reopened, null)
    })

    return { confirm, cancel, reroute }
  })
