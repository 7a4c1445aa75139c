import { Effect, Option } from "effect"
import { ClientSecretRejected } from "../../domain/checkout/CheckoutErrors.js"
import {
  type CheckoutSession,
  type CheckoutSessionListFilter,
  CheckoutSessionRecord,
  type CreateCheckoutSession,
  EXPIRES_IN_MAX,
  sessionIdOfSecret
} from "../../domain/checkout/CheckoutSession.js"
import { clientSecretOf, legacySecretDigest } from "../../domain/checkout/ClientSecrets.js"
import { constantTimeEqual } from "../../domain/HmacSha256.js"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import type { InvalidCursor, Page, PageRequest } from "../../domain/Pagination.js"
import { PaymentCustomerNotFound } from "../../domain/payments/PaymentErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now, plusMillis } from "../../domain/Timestamp.js"
import { CheckoutSessionsRepository } from "../../ports/CheckoutSessionsRepository.js"
import { CustomersRepository } from "../../ports/CustomersRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import { PublicUrls } from "../../ports/PublicUrls.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { merchantNameOf, resolveCheckoutUi, vaultFormOf } from "./CheckoutMethods.js"
import { CheckoutRecords } from "./CheckoutRecords.js"
import type { CheckoutSessionCatchUp } from "./CheckoutSessionCatchUp.js"

/**
 * A session made by the merchant's server and read back: by the merchant in full (with its client
 * secret), by the customer's browser in public once its client secret is authenticated.
 */
export const makeCheckoutSessionAccess = (catchUp: CheckoutSessionCatchUp) =>
  Effect.gen(function*() {
    const records = yield* CheckoutRecords
    const repository = yield* CheckoutSessionsRepository
    const resolution = yield* ProviderResolution
    const organizations = yield* OrganizationsRepository
    const transactions = yield* Transactions
    const ids = yield* IdGenerator
    const customers = yield* CustomersRepository
    const { clientSecretDerivation } = yield* KeyMaterial
    const keys = yield* IdempotentRequests
    const vaultForm = vaultFormOf(yield* Connectors, yield* PublicUrls)
    const { current, paymentOf, publicOf, withSecret } = catchUp

    const create = Effect.fn("CheckoutSessions.create")(function*(tenant: Tenant, input: CreateCheckoutSession, run: Running = noKey) {
      if (run.recovered !== null) {
        return yield* records.load(tenant, run.recovered).pipe(
          Effect.catchTag("CheckoutSessionNotFound", Effect.die),
          Effect.flatMap((session) => withSecret(session))
        )
      }
      // The session's payments are for this customer: only the organization's own, in this mode.
      if (input.customer_id !== undefined && Option.isNone(yield* customers.find(tenant, input.customer_id))) {
        return yield* new PaymentCustomerNotFound({ id: input.customer_id })
      }
      const methods = input.allowed_methods ?? null
      const facts = { amount: input.amount, currency: input.currency, country: input.country?.toUpperCase() ?? null }
      const merchantName = yield* merchantNameOf(organizations, tenant)
      const ui = yield* resolveCheckoutUi(resolution, tenant, facts, methods, {
        merchantName,
        provider: input.provider,
        excluded: [],
        vaultForm
      })
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
            ui,
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
        yield* keys.attach(run, id)
        return session
      })).pipe(Effect.flatMap((session) => withSecret(session)))
    })

    const retrieve = (tenant: Tenant, id: string, options?: { readonly expandPayment: boolean }) =>
      Effect.gen(function*() {
        const session = yield* current(tenant, id)
        return yield* withSecret(session, options?.expandPayment === true ? yield* paymentOf(tenant, session) : null)
      })

    const retrievePublic = (tenant: Tenant, id: string) => Effect.flatMap(current(tenant, id), (session) => publicOf(tenant, session))

    const list = (
      tenant: Tenant,
      filter: CheckoutSessionListFilter,
      page: PageRequest
    ): Effect.Effect<Page<CheckoutSession>, InvalidCursor> =>
      Effect.flatMap(
        repository.list(tenant, filter, page),
        (found) => Effect.map(Effect.forEach(found.data, (session) => withSecret(session)), (data) => ({ ...found, data }))
      )

    const authenticate = (clientSecret: string) =>
      Effect.gen(function*() {
        const sessionId = sessionIdOfSecret(clientSecret)
        if (sessionId === null) return yield* new ClientSecretRejected({})
        const owner = yield* repository.ownerOf(sessionId)
        if (Option.isNone(owner)) return yield* new ClientSecretRejected({})
        const derived = constantTimeEqual(yield* clientSecretOf(clientSecretDerivation, sessionId), clientSecret)
        // A session made before 0008 also keeps the random secret it was given (for its 24 hours at most).
        const { legacySecretDigest: legacy, tenant } = owner.value
        const kept = legacy !== null && constantTimeEqual(yield* legacySecretDigest(clientSecret), legacy)
        if (!derived && !kept) return yield* new ClientSecretRejected({})
        return { tenant, sessionId }
      })

    return { create, retrieve, retrievePublic, list, authenticate }
  })
