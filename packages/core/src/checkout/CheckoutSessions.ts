import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import { now, plusMillis } from "../domain/Timestamp.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import type { Payment } from "../payments/Payment.js"
import { Payments } from "../payments/Payments.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import type { Job } from "../ports/Jobs.js"
import { drainLeased } from "../ports/LeasedWork.js"
import { PublicUrls } from "../ports/PublicUrls.js"
import { Transactions } from "../ports/Transactions.js"
import { type ProviderConnection, shownAs } from "../providers/ProviderConnection.js"
import { type NoProviderAvailable, type ProviderNotUsable, ProviderResolution } from "../providers/ProviderResolution.js"
import { constantTimeEqual, KeyMaterial } from "../tenancy/KeyMaterial.js"
import {
  type CheckoutSessionListFilter,
  type CheckoutSessionPublic,
  type CheckoutUi,
  type ConfirmCheckout,
  type CreateCheckoutSession,
  CheckoutSession,
  CheckoutSessionRecord,
  EXPIRES_IN_MAX,
  type RerouteCheckout,
  sessionIdOfSecret,
  toPublic
} from "./CheckoutSession.js"
import { CheckoutSessionNotFound, CheckoutSessionStateConflict, ClientSecretRejected } from "./CheckoutErrors.js"
import { CheckoutRecords } from "./CheckoutRecords.js"
import { clientSecretOf, legacySecretDigest } from "./ClientSecrets.js"
import { type CheckoutSessionRef, CheckoutSessionsRepository } from "./CheckoutSessionsRepository.js"

/** The one session a client secret opens, and whose it is. */
export interface ClientSecretHolder {
  readonly tenant: Tenant
  readonly sessionId: string
}

type Errors<E> = Effect.Effect<CheckoutSessionPublic, E>

/**
 * Checkout sessions (decisions §12): created by the merchant's server, then driven by the customer's
 * browser with the session's client secret: confirm with a provider's token, reroute to another
 * provider after a rejection, cancel. Every read first catches the session up with time (expiry)
 * and with its payment (a 3D Secure challenge that ended meanwhile).
 */
export class CheckoutSessions extends Context.Tag("core/CheckoutSessions")<CheckoutSessions, {
  readonly create: (
    tenant: Tenant,
    input: CreateCheckoutSession
  ) => Effect.Effect<CheckoutSession, NoProviderAvailable | ProviderNotUsable>
  /** The full view; with `expandPayment` its latest payment is inside. */
  readonly retrieve: (
    tenant: Tenant,
    id: string,
    options?: { readonly expandPayment: boolean }
  ) => Effect.Effect<CheckoutSession, CheckoutSessionNotFound>
  readonly retrievePublic: (tenant: Tenant, id: string) => Errors<CheckoutSessionNotFound>
  readonly list: (
    tenant: Tenant,
    filter: CheckoutSessionListFilter,
    page: PageRequest
  ) => Effect.Effect<Page<CheckoutSession>, InvalidCursor>
  readonly confirm: (
    tenant: Tenant,
    id: string,
    input: ConfirmCheckout
  ) => Errors<CheckoutSessionNotFound | CheckoutSessionStateConflict>
  readonly cancel: (tenant: Tenant, id: string) => Errors<CheckoutSessionNotFound | CheckoutSessionStateConflict>
  readonly reroute: (
    tenant: Tenant,
    id: string,
    input: RerouteCheckout
  ) => Errors<CheckoutSessionNotFound | CheckoutSessionStateConflict | NoProviderAvailable>
  /** Which session a client secret opens, compared in constant time; anything else is rejected alike. */
  readonly authenticate: (clientSecret: string) => Effect.Effect<ClientSecretHolder, ClientSecretRejected>
  /**
   * Settles a session from its payment's events (a 3D Secure challenge completed while the customer
   * never came back), so `checkout.session.completed` is sent without anyone reading the session.
   */
  readonly consumer: EventConsumer
  /** Worker: expires one session whose time is up, if it is still open or failed. */
  readonly expire: (ref: CheckoutSessionRef) => Effect.Effect<void>
  readonly jobs: ReadonlyArray<Job>
}>() {
  static readonly layer = Layer.effect(CheckoutSessions, Effect.suspend(() => make))
}

/** How long a confirm may run before a session it left `processing` without a payment is given up. */
const ABANDONED_CONFIRM_MILLIS = 2 * 60 * 1000

const uiOf = (connection: ProviderConnection, methods: ReadonlyArray<string> | null): CheckoutUi => ({
  provider: connection.name,
  display_name: shownAs(connection),
  type: connection.type,
  publishable_key: null,
  methods: methods ?? ["card"]
})

const make = Effect.gen(function*() {
  const records = yield* CheckoutRecords
  const repository = yield* CheckoutSessionsRepository
  const payments = yield* Payments
  const resolution = yield* ProviderResolution
  const transactions = yield* Transactions
  const ids = yield* IdGenerator
  const urls = yield* PublicUrls
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

  /** Where a payment's outcome takes a processing session; `null` while it is still undecided. */
  const settledBy = (payment: Payment | null) => {
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

  /** Records `payment` as the session's latest, once (the confirm and the outbox may both bring it). */
  const link = (tenant: Tenant, session: CheckoutSessionRecord, payment: Payment) =>
    session.payment_ids.includes(payment.id)
      ? Effect.succeed(session)
      : records.save(tenant, session, { payment_id: payment.id, payment_ids: [...session.payment_ids, payment.id] })

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

  const publicOf = (tenant: Tenant, session: CheckoutSessionRecord) =>
    Effect.map(paymentOf(tenant, session), (payment) => toPublic(session, payment))

  const create = Effect.fn("CheckoutSessions.create")(function*(tenant: Tenant, input: CreateCheckoutSession) {
    const scope = yield* IdempotencyScope
    if (Option.isSome(scope.recovered)) {
      return yield* records.load(tenant, scope.recovered.value).pipe(
        Effect.catchTag("CheckoutSessionNotFound", Effect.die),
        Effect.flatMap((session) => withSecret(session))
      )
    }
    const methods = input.allowed_methods ?? null
    const facts = {
      amount: input.amount,
      currency: input.currency,
      method: methods?.[0] ?? "card",
      country: input.country?.toUpperCase() ?? null
    }
    const connection = input.provider === undefined
      ? yield* resolution.forCheckout(tenant, facts, [])
      : (yield* resolution.forPayment(tenant, { ...facts, provider: input.provider })).connection
    const id = yield* ids.make("cs")
    const createdAt = yield* now
    return yield* transactions.run(Effect.gen(function*() {
      const session = yield* records.create(
        tenant,
        new CheckoutSessionRecord({
          object: "checkout.session",
          id,
          status: "open",
          amount: input.amount,
          currency: input.currency,
          ui: uiOf(connection, methods),
          allowed_methods: methods,
          success_url: input.success_url,
          cancel_url: input.cancel_url,
          return_url: input.return_url ?? null,
          locale: input.locale ?? null,
          customer_email: input.customer_email ?? null,
          customer_id: input.customer_id ?? null,
          country: facts.country,
          excluded_providers: [],
          metadata: input.metadata ?? {},
          payment_id: null,
          payment_ids: [],
          payment: null,
          expires_at: plusMillis(createdAt, (input.expires_in ?? EXPIRES_IN_MAX) * 1000),
          created_at: createdAt,
          updated_at: createdAt,
          livemode: tenant.livemode
        })
      )
      yield* scope.attach(id)
      return session
    })).pipe(Effect.flatMap((session) => withSecret(session)))
  })

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

  const authenticate = (clientSecret: string) =>
    Effect.gen(function*() {
      const sessionId = sessionIdOfSecret(clientSecret)
      if (sessionId === null) return yield* new ClientSecretRejected()
      const owner = yield* repository.ownerOf(sessionId)
      if (Option.isNone(owner)) return yield* new ClientSecretRejected()
      const derived = constantTimeEqual(yield* clientSecretOf(clientSecretDerivation, sessionId), clientSecret)
      // A session made before 0008 also keeps the random secret it was given (for its 24 hours at most).
      const { legacySecretDigest: legacy, tenant } = owner.value
      const kept = legacy !== null && constantTimeEqual(yield* legacySecretDigest(clientSecret), legacy)
      if (!derived && !kept) return yield* new ClientSecretRejected()
      return { tenant, sessionId }
    })

  const expire = (ref: CheckoutSessionRef) =>
    Effect.asVoid(Effect.ignore(current(ref.tenant, ref.sessionId)))

  const expireDue = drainLeased({
    claim: (lease) => repository.claimExpired(lease),
    handle: ({ item }) => expire(item),
    leaseFor: "30 seconds",
    concurrency: 2,
    maxPerPass: 500
  }).pipe(Effect.withSpan("CheckoutSessions.expireDue"))

  return CheckoutSessions.of({
    create,
    retrieve: (tenant, id, options) =>
      Effect.gen(function*() {
        const session = yield* current(tenant, id)
        return yield* withSecret(session, options?.expandPayment === true ? yield* paymentOf(tenant, session) : null)
      }),
    retrievePublic: (tenant, id) => Effect.flatMap(current(tenant, id), (session) => publicOf(tenant, session)),
    list: (tenant, filter, page) =>
      Effect.flatMap(
        repository.list(tenant, filter, page),
        (found) => Effect.map(Effect.forEach(found.data, (session) => withSecret(session)), (data) => ({ ...found, data }))
      ),
    confirm,
    cancel,
    reroute,
    authenticate,
    consumer: {
      name: "checkout-sessions",
      consume: (organizationId, event) => {
        if (!event.type.startsWith("payment.")) return Effect.void
        const payment = event.data.object as Payment
        const sessionId = payment.metadata?.checkout_session_id
        if (sessionId === undefined) return Effect.void
        return follow({ organizationId, livemode: event.livemode }, sessionId, payment.id)
      }
    },
    expire,
    jobs: [{ name: "expire-checkout-sessions", every: "30 seconds", run: expireDue }]
  })
})
