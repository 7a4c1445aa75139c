import { Context, Effect, Layer } from "effect"
import type {
  CheckoutMethodNotAllowed,
  CheckoutSessionNotFound,
  CheckoutSessionStateConflict,
  ClientSecretRejected
} from "../../domain/checkout/CheckoutErrors.js"
import type {
  CheckoutSession,
  CheckoutSessionListFilter,
  CheckoutSessionPublic,
  ConfirmCheckout,
  CreateCheckoutSession,
  RerouteCheckout
} from "../../domain/checkout/CheckoutSession.js"
import type { Running } from "../../domain/idempotency/KeyRun.js"
import type { InvalidCursor, Page, PageRequest } from "../../domain/Pagination.js"
import type { PaymentCustomerNotFound } from "../../domain/payments/PaymentErrors.js"
import type { NoProviderAvailable, ProviderNotUsable } from "../../domain/routing/RoutingErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import type { PaymentMethodNotFound } from "../../domain/vault/VaultErrors.js"
import type { CheckoutSessionRef } from "../../ports/CheckoutSessionsRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { Job } from "../../ports/Jobs.js"
import { Connectors } from "../connections/Connectors.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { Payments } from "../payments/Payments.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { makeCheckoutPaymentEvents } from "./CheckoutPaymentEvents.js"
import { CheckoutRecords } from "./CheckoutRecords.js"
import { makeCheckoutSessionAccess } from "./CheckoutSessionAccess.js"
import { makeCheckoutSessionActions } from "./CheckoutSessionActions.js"
import { makeCheckoutSessionCatchUp } from "./CheckoutSessionCatchUp.js"
import { makeCheckoutSessionExpiry } from "./CheckoutSessionExpiry.js"

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
    input: CreateCheckoutSession,
    run?: Running
  ) => Effect.Effect<CheckoutSession, NoProviderAvailable | ProviderNotUsable | PaymentCustomerNotFound>
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
  ) => Errors<CheckoutSessionNotFound | CheckoutSessionStateConflict | CheckoutMethodNotAllowed | PaymentMethodNotFound>
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
  static readonly layer = Layer.effect(CheckoutSessions, Effect.suspend(() => make)).pipe(
    Layer.provide(
      Layer.mergeAll(IdGenerator.layer, CheckoutRecords.layer, Connectors.layer, ProviderResolution.layer, Payments.layer, IdempotentRequests.layer)
    )
  )
}

/** The service put together from its use cases, each in its own file, all on the same caught-up session. */
const make = Effect.gen(function*() {
  const catchUp = yield* makeCheckoutSessionCatchUp
  const access = yield* makeCheckoutSessionAccess(catchUp)
  const actions = yield* makeCheckoutSessionActions(catchUp)
  const consumer = yield* makeCheckoutPaymentEvents(catchUp)
  const expiry = yield* makeCheckoutSessionExpiry(catchUp)
  return CheckoutSessions.of({ ...access, ...actions, consumer, expire: expiry.expire, jobs: [expiry.job] })
})
