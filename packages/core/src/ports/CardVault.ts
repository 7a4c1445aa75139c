import { Context, type Effect, type Redacted } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { ConnectorUnavailable } from "../domain/providers/ConnectorOutcomes.js"
import type { Tenant } from "../domain/Tenant.js"
import type { CreatePaymentMethod, DeletedPaymentMethod, PaymentMethodResource, VaultedCardFacts } from "../domain/vault/PaymentMethod.js"
import type { PaymentMethodAccess } from "../domain/vault/PaymentMethodAccess.js"
import type { CardInvalid, PaymentMethodModeMismatch, PaymentMethodNotFound, RawCardDataDisabled } from "../domain/vault/VaultErrors.js"

/**
 * A card as a PSP that takes raw cards needs it, decrypted for one egress call's body and nothing
 * else: the number and the security code stay `Redacted` so no log, span or error can print them.
 */
export interface RawCard {
  readonly number: Redacted.Redacted<string>
  readonly expMonth: number
  readonly expYear: number
  /** Only for the card's first authorization; `null` afterwards (it is never stored). */
  readonly cvc: Redacted.Redacted<string> | null
  readonly holderName: string | null
  readonly brand: string
  /** The scheme's id of the card's first authorization, for a later charge as a stored credential. */
  readonly networkTransactionId: string | null
}

/**
 * The scheme's id of the card's first authorization, to send with a merchant-initiated charge (the
 * customer is not there: a renewal) so the issuer links it to the stored credential's first
 * transaction, wherever that was authorized; `null` with the customer present or when none is kept.
 */
export const previousSchemeTransaction = (request: { readonly offSession: boolean }, card: RawCard): string | null =>
  request.offSession ? card.networkTransactionId : null

/** How a card reached the vault: the merchant's server (raw card data) or the service's card form. */
export type CardChannel = "raw_api" | "card_form"

/**
 * Where a card typed into the card form came from: a checkout session's shopper (authorized by its
 * client secret), whose session alone may then be confirmed with it.
 */
export interface CardOrigin {
  readonly checkoutSessionId: string | null
}

/** Why a card is decrypted: each decryption is recorded with these, append-only. */
export interface CardUse {
  readonly purpose: "authorization"
  readonly paymentId: string
  readonly connection: string
}

/** One decryption as the card's access log keeps it: for `use`, of the card `cardId` of the tenant. */
export interface CardAccess extends CardUse {
  readonly cardId: string
  readonly atMillis: number
}

/**
 * A vaulted payment's first access, recorded by the write that creates the payment (the same
 * statement: a vaulted payment then costs no round trip of the vault's own), and the card's sealed
 * data that write read, for the first attempt's `reveal` on `access.connection` alone. A store that
 * cannot read along leaves it unread, and the vault reads (and records) for itself as usual.
 */
export class CardReadAlong {
  private read: { readonly sealed: unknown } | undefined
  constructor(readonly access: CardAccess) {}
  /** Told by the store what its write read: the card's sealed columns, `null` when there is no such card. */
  readonly found = (sealed: unknown): void => {
    this.read = { sealed }
  }
  /** What the write read, for one `reveal` of `paymentId` on `connection`: a later attempt reads for itself. */
  readonly take = (paymentId: string, connection: string): CardRead | undefined => {
    if (this.access.paymentId !== paymentId || this.access.connection !== connection) return undefined
    const read = this.read
    this.read = undefined
    return read
  }
}

/** A card's sealed data as a store read it, recorded already: only the vault opens it. */
export interface CardRead {
  readonly sealed: unknown
}

/**
 * The card of a payment, handed to a connector whose PSP takes raw cards: `reveal` decrypts it (and
 * records that it did) and is called only while the PSP request's body is built.
 */
export interface VaultCardAccess {
  readonly reveal: Effect.Effect<RawCard, ConnectorUnavailable>
}

/**
 * The card vault: cards encrypted under their own data keys, found by `pm_…` tokens of the
 * organization and mode that made them. Nothing outside it reads its tables, but a vaulted payment's
 * creation through the vault's own read (`CardReadAlong`).
 */
export class CardVault extends Context.Tag("core/CardVault")<CardVault, {
  /**
   * Vaults a card. Sent by the merchant's server (`raw_api`), only for organizations the operator
   * enabled raw card data for; typed into the service's own card form (`card_form`), always, since
   * the merchant's pages never see the number there.
   */
  readonly tokenize: (
    tenant: Tenant,
    input: CreatePaymentMethod,
    channel?: CardChannel,
    origin?: CardOrigin
  ) => Effect.Effect<PaymentMethodResource, CardInvalid | RawCardDataDisabled>
  /**
   * The checkout session the card was typed for (through its client secret), or `null` for a card of
   * the merchant's; a card of another organization or mode is not found.
   */
  readonly checkoutSessionOf: (tenant: Tenant, id: string) => Effect.Effect<string | null, PaymentMethodNotFound>
  readonly retrieve: (tenant: Tenant, id: string) => Effect.Effect<PaymentMethodResource, PaymentMethodNotFound>
  /** The card's facts for a payment of this tenant; a card of the other mode is refused as such. */
  readonly forPayment: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<VaultedCardFacts, PaymentMethodNotFound | PaymentMethodModeMismatch>
  /** Destroys the card's data: its token is refused from then on. */
  readonly destroy: (tenant: Tenant, id: string) => Effect.Effect<DeletedPaymentMethod, PaymentMethodNotFound>
  /** The card's access log, newest first: every decryption, for its organization's owner (PCI DSS 10.2). */
  readonly accesses: (
    tenant: Tenant,
    id: string,
    page: PageRequest
  ) => Effect.Effect<Page<PaymentMethodAccess>, PaymentMethodNotFound | InvalidCursor>
  /**
   * The card for one PSP call, recorded in the card's access log; with `read`, the one the
   * payment's creation made and recorded already (see `CardReadAlong`).
   */
  readonly reveal: (tenant: Tenant, id: string, use: CardUse, read?: CardRead) => Effect.Effect<RawCard, PaymentMethodNotFound>
  /**
   * The card's first authorization has an outcome, whatever it is: its security code is destroyed,
   * and the scheme's transaction id, when the PSP gave one, kept for later charges. Called after
   * every authorization of the card; only the first id is kept, the one a stored credential's
   * merchant-initiated charges point back to.
   */
  readonly authorized: (tenant: Tenant, id: string, networkTransactionId: string | null) => Effect.Effect<void>
}>() {}

/** Tokens of the vault start with `pm_` followed by our 30 characters of Crockford base32 (a Stripe `pm_…` is not one). */
export const isVaultToken = (token: string | null): token is string => token !== null && /^pm_[0-9A-HJKMNP-TV-Z]{30}$/.test(token)
