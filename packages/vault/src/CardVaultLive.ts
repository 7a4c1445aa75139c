import {
  cardDigits,
  CardInvalid,
  cardProblem,
  type CardRead,
  type CardUse,
  CardVault,
  DeletedPaymentMethod,
  IdGenerator,
  PaymentMethodModeMismatch,
  PaymentMethodNotFound,
  PaymentMethodResource,
  RawCardDataDisabled,
  type Tenant,
  VaultedCardFacts
} from "@orchestrator/core"
import { Clock, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { accessPageOf } from "./cards/AccessLog.js"
import { binFacts, isAmex, isTestCard } from "./cards/Bins.js"
import { makeCardFactsCache } from "./cards/CardFactsCache.js"
import { makeCvcHolding } from "./cards/CvcHolding.js"
import { SharedCvcs } from "./cards/SharedCvcs.js"
import { openCardWith, sealCard } from "./crypto/Envelope.js"
import { KeyProvider } from "./keys/KeyProvider.js"
import { sealedOf, type SealedRecord } from "./storage/SealedRecord.js"
import { type CardRow, VaultStore } from "./storage/VaultStore.js"

export interface VaultOptions {
  /** Organizations that may send raw card numbers to `POST /v1/payment_methods` (off for every other). */
  readonly rawCardData: (organizationId: string) => boolean
  /** How long a security code waits for its card's first authorization (10 minutes unless said). */
  readonly cvcTtlMillis?: number | undefined
  /**
   * The key of the per-organization fingerprints (HMAC-SHA-256 of the number): a secret of its own,
   * not a KEK, so rotating or retiring KEKs never changes a fingerprint.
   */
  readonly fingerprintKey: Uint8Array
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The sealed part of a card: what only the PSP call may read. */
interface Secret {
  readonly number: string
  readonly holder_name: string | null
  readonly exp_month: number
  readonly exp_year: number
}

const factsOf = (row: CardRow) =>
  new VaultedCardFacts({
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    country: row.country,
    funding: row.funding,
    fingerprint: row.fingerprint
  })

const resourceOf = (row: CardRow) =>
  new PaymentMethodResource({
    object: "payment_method",
    id: row.id,
    type: "card",
    card: factsOf(row),
    created_at: DateTime.unsafeMake(row.createdAtMillis),
    livemode: row.livemode
  })

/**
 * A card that does not open (a key version missing, a row altered): the operator hears of it, by ids
 * only; the payment is refused for good (`payment_method_unusable`), with no PSP called.
 */
const unopenable = (tenant: Tenant, id: string) =>
  Effect.zipRight(
    Effect.logWarning(`The vault could not open card ${id} of ${tenant.organizationId}: its key version is missing or its row was altered.`),
    new PaymentMethodNotFound({ id })
  )

/**
 * The card's facts for a payment of `tenant`, from this process's cache after the first read: a card
 * of the other mode is refused as such, not as missing.
 */
const factsForPayment = (
  store: VaultStore["Type"],
  cache: ReturnType<typeof makeCardFactsCache>,
  tenant: Tenant,
  id: string
): Effect.Effect<VaultedCardFacts, PaymentMethodNotFound | PaymentMethodModeMismatch> => {
  const inMode = (
    cached: { readonly livemode: boolean; readonly facts: VaultedCardFacts }
  ): Effect.Effect<VaultedCardFacts, PaymentMethodNotFound | PaymentMethodModeMismatch> =>
    cached.livemode === tenant.livemode
      ? Effect.succeed(cached.facts)
      : Effect.fail(new PaymentMethodModeMismatch({ livemode: tenant.livemode }))
  return Effect.suspend(() => {
    const cached = cache.get(tenant.organizationId, id)
    if (cached !== undefined) return inMode(cached)
    return Effect.flatMap(store.find(tenant.organizationId, id), (found) => {
      if (Option.isNone(found)) return Effect.fail(new PaymentMethodNotFound({ id }))
      const read = { livemode: found.value.livemode, facts: factsOf(found.value) }
      cache.set(tenant.organizationId, id, read)
      return inMode(read)
    })
  })
}

/**
 * The card's sealed data for a PSP call, recorded with the read, before the decryption (an access
 * that fails half-way is still an access): read now, or as the payment's creation read (and recorded) it.
 */
const sealedForAccess = (store: VaultStore["Type"], tenant: Tenant, id: string, use: CardUse, read: CardRead | undefined) =>
  read !== undefined
    ? Effect.succeed(Option.map(Option.fromNullable(read.sealed as SealedRecord | null), sealedOf))
    : Effect.flatMap(Clock.currentTimeMillis, (atMillis) =>
      store.findForAccess({
        cardId: id,
        organizationId: tenant.organizationId,
        livemode: tenant.livemode,
        purpose: use.purpose,
        paymentId: use.paymentId,
        connection: use.connection,
        atMillis
      }))

/** The card's fingerprint in its organization: HMAC-SHA-256 of the number under the fingerprint key. */
const fingerprintOf = (key: Uint8Array, organizationId: string, digits: string) =>
  createHmac("sha256", key).update(`${organizationId}\u0000${digits}`).digest("base64url").slice(0, 22)

/**
 * The card vault over its key provider and its tables: the `CardVault` port's implementation. Security
 * codes wait in `SharedCvcs` (Redis) when it is provided, else in this process's memory.
 */
export const CardVaultLive = (options: VaultOptions) =>
  Layer.effect(
    CardVault,
    Effect.gen(function*() {
      const keys = yield* KeyProvider
      const store = yield* VaultStore
      const ids = yield* IdGenerator
      const cvcs = makeCvcHolding(options.cvcTtlMillis ?? 10 * 60_000, keys, yield* Effect.serviceOption(SharedCvcs))
      const provide = Effect.provideService(KeyProvider, keys)
      const factsCache = makeCardFactsCache()

      const mineInMode = (tenant: Tenant, id: string) =>
        Effect.flatMap(store.find(tenant.organizationId, id), (found) =>
          Option.isSome(found) && found.value.livemode === tenant.livemode ? Effect.succeed(found.value) : new PaymentMethodNotFound({ id }))

      return {
        tokenize: (tenant, input, channel = "raw_api", origin) =>
          Effect.gen(function*() {
            // The card form is SAQ A for the merchant: no gate; numbers from their server are SAQ D, gated.
            if (channel === "raw_api" && !options.rawCardData(tenant.organizationId)) {
              return yield* new RawCardDataDisabled()
            }
            const today = DateTime.toPartsUtc(DateTime.unsafeMake(yield* Clock.currentTimeMillis))
            const problem = cardProblem(input.card, { year: today.year, month: today.month }, isAmex)
            if (problem !== undefined) {
              return yield* new CardInvalid(problem)
            }
            const digits = cardDigits(input.card.number)!
            if (!tenant.livemode && !isTestCard(digits)) {
              return yield* new CardInvalid({
                code: "invalid_number",
                param: "card.number",
                message: "Test mode takes only test card numbers (e.g. 4242 4242 4242 4242); a real card needs a live key."
              })
            }
            const id = yield* ids.make("pm")
            const secret: Secret = {
              number: digits,
              holder_name: input.card.holder_name ?? null,
              exp_month: input.card.exp_month,
              exp_year: input.card.exp_year
            }
            const sealed = yield* provide(sealCard(id, encoder.encode(JSON.stringify(secret))))
            const facts = binFacts(digits)
            const row: CardRow = {
              id,
              organizationId: tenant.organizationId,
              livemode: tenant.livemode,
              ...sealed,
              brand: facts.brand,
              funding: facts.funding,
              country: facts.country,
              last4: digits.slice(-4),
              expMonth: input.card.exp_month,
              expYear: input.card.exp_year,
              fingerprint: fingerprintOf(options.fingerprintKey, tenant.organizationId, digits),
              networkTransactionId: null,
              checkoutSessionId: origin?.checkoutSessionId ?? null,
              createdAtMillis: yield* Clock.currentTimeMillis
            }
            yield* store.insert(row)
            factsCache.set(tenant.organizationId, id, { livemode: row.livemode, facts: factsOf(row) })
            if (input.card.cvc !== undefined) {
              yield* cvcs.put(id, input.card.cvc)
            }
            return resourceOf(row)
          }),
        accesses: (tenant, id, page) =>
          Effect.zipRight(mineInMode(tenant, id), accessPageOf(store, tenant, id, page)),
        retrieve: (tenant, id) => Effect.map(mineInMode(tenant, id), resourceOf),
        checkoutSessionOf: (tenant, id) => Effect.map(mineInMode(tenant, id), (row) => row.checkoutSessionId),
        forPayment: (tenant, id) => factsForPayment(store, factsCache, tenant, id),
        destroy: (tenant, id) =>
          Effect.gen(function*() {
            yield* mineInMode(tenant, id)
            factsCache.forget(tenant.organizationId, id)
            yield* cvcs.destroy(id)
            if (!(yield* store.destroy(tenant.organizationId, id))) return yield* new PaymentMethodNotFound({ id })
            return new DeletedPaymentMethod({ object: "payment_method", id, deleted: true })
          }),
        reveal: (tenant, id, use: CardUse, read?: CardRead) =>
          Effect.gen(function*() {
            const found = yield* sealedForAccess(store, tenant, id, use, read)
            if (Option.isNone(found)) return yield* new PaymentMethodNotFound({ id })
            const row = found.value
            const plaintext = yield* openCardWith(keys, id, row).pipe(
              // A card that does not open is never guessed at: the payment cannot use it.
              Effect.catchTag("VaultKeyFailure", () => unopenable(tenant, id))
            )
            const secret = JSON.parse(decoder.decode(plaintext)) as Secret
            plaintext.fill(0)
            const cvc = yield* cvcs.forAuthorization(id)
            return {
              number: Redacted.make(secret.number),
              expMonth: secret.exp_month,
              expYear: secret.exp_year,
              holderName: secret.holder_name,
              cvc: Option.isSome(cvc) ? Redacted.make(cvc.value) : null,
              brand: row.brand,
              networkTransactionId: row.networkTransactionId
            }
          }),
        authorized: (tenant, id, networkTransactionId) =>
          Effect.gen(function*() {
            yield* cvcs.destroy(id)
            if (networkTransactionId !== null) yield* store.keepNetworkTransaction(tenant.organizationId, id, networkTransactionId)
          })
      }
    })
  )
