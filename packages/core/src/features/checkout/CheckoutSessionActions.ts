import { Effect, Option } from "effect"
import { CheckoutMethodNotAllowed, CheckoutSessionStateConflict } from "../../domain/checkout/CheckoutErrors.js"
import { type ConfirmCheckout, type RerouteCheckout, toPublic } from "../../domain/checkout/CheckoutSession.js"
import type { Payment } from "../../domain/payments/Payment.js"
import { CARD_METHOD, isRedirectMethod } from "../../domain/payments/PaymentMethodTypes.js"
import type { Tenant } from "../../domain/Tenant.js"
import { PaymentMethodNotFound } from "../../domain/vault/VaultErrors.js"
import { CardVault, isVaultToken } from "../../ports/CardVault.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { PublicUrls } from "../../ports/PublicUrls.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { Payments } from "../payments/Payments.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { merchantNameOf, providerForMethod, resolveCheckoutUi, vaultFormOf } from "./CheckoutMethods.js"
import { CheckoutRecords } from "./CheckoutRecords.js"
import { type CheckoutSessionCatchUp, settledBy } from "./CheckoutSessionCatchUp.js"

/**
 * A vaulted card (pm_…) pays a session only when its shopper typed it into the card form under this
 * session's client secret: a merchant's stored card, or one made for another session, is not the
 * shopper's to name, and is answered as not found (whether it exists is not told either).
 */
const vaultedCardOfSession = (vault: Option.Option<CardVault["Type"]>, tenant: Tenant, sessionId: string, input: ConfirmCheckout) =>
  Effect.gen(function*() {
    const token = input.payment_method.type === CARD_METHOD ? input.payment_method.token : null
    if (!isVaultToken(token)) return
    const madeFor = Option.isNone(vault) ? null : yield* vault.value.checkoutSessionOf(tenant, token).pipe(
      Effect.catchTag("PaymentMethodNotFound", () => Effect.succeed(null))
    )
    if (madeFor !== sessionId) return yield* new PaymentMethodNotFound({ id: token })
  })

/**
 * What the customer's browser does to a session: confirm it with a provider's token or a vaulted card it typed (one payment),
 * reroute it to another provider after a rejection, cancel it.
 */
export const makeCheckoutSessionActions = (catchUp: CheckoutSessionCatchUp) =>
  Effect.gen(function*() {
    const records = yield* CheckoutRecords
    const payments = yield* Payments
    const resolution = yield* ProviderResolution
    const organizations = yield* OrganizationsRepository
    const transactions = yield* Transactions
    const urls = yield* PublicUrls
    const vaultForm = vaultFormOf(yield* Connectors, urls)
    const vault = yield* Effect.serviceOption(CardVault)
    const { current, link, paymentOf, publicOf } = catchUp

    const confirm = Effect.fn("CheckoutSessions.confirm")(function*(tenant: Tenant, id: string, input: ConfirmCheckout) {
      const before = yield* current(tenant, id)
      const method = input.payment_method.type
      if (providerForMethod(before, method) === null) {
        return yield* new CheckoutMethodNotAllowed({ method, allowed: before.allowed_methods ?? [CARD_METHOD] })
      }
      yield* vaultedCardOfSession(vault, tenant, before.id, input)
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
        // The connection routing gave this method when the session was made (a wallet's own PSP).
        provider: providerForMethod(session, method) ?? session.ui.provider,
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
          NoProviderAvailable: () => Effect.succeed(null),
          // A session made before its customer_id was checked, naming a customer that is not the
          // organization's own: nothing is charged, and the session is rejected like a refusal.
          PaymentCustomerNotFound: () => Effect.succeed(null)
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
      // The provider that refused: the failed payment's, and the card form's unless a wallet's own PSP
      // refused (the card form may still take the customer's card then).
      const failed = yield* paymentOf(tenant, session)
      const walletFailed = failed !== null && isRedirectMethod(failed.payment_method.type)
      const excluded = [
        ...new Set([
          ...session.excluded_providers,
          ...(failed === null ? [] : [failed.provider]),
          ...(walletFailed ? [] : [session.ui.provider]),
          ...(input.exclude_provider === undefined ? [] : [input.exclude_provider])
        ])
      ]
      const ui = yield* resolveCheckoutUi(
        resolution,
        tenant,
        {
          amount: session.amount,
          currency: session.currency,
          country: session.country
        },
        session.allowed_methods,
        { merchantName: yield* merchantNameOf(organizations, tenant), excluded, dropUnroutableWallets: true, vaultForm }
      ).pipe(
        // Only a forced `provider` is refused as not usable; a reroute never forces one.
        Effect.catchTag("ProviderNotUsable", (error) => Effect.die(error))
      )
      const reopened = yield* transactions.run(Effect.gen(function*() {
        const locked = yield* records.lock(tenant, id)
        if (locked.status !== "payment_failed") {
          return yield* new CheckoutSessionStateConflict({ session: locked, action: "reroute" })
        }
        return yield* records.move(tenant, locked, "open", {
          ui,
          excluded_providers: excluded
        })
      }))
      // The failed payment stays on the session's record; the reopened session shows none.
      return toPublic(reopened, null)
    })

    return { confirm, cancel, reroute }
  })
