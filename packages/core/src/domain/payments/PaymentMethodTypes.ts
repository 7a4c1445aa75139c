/**
 * The kinds of payment method the core knows. A `card` carries the PSP's token of the card; a
 * redirect method (a wallet or a local method) carries nothing: the customer approves the payment on
 * the PSP's own page, which the payment's `next_action` sends them to.
 */
export const CARD_METHOD = "card"

/** Wallets and local methods: paid by approving at the PSP after a redirect (iDEAL and Bancontact at Mollie). */
export const REDIRECT_METHODS = ["paypal", "ideal", "bancontact"] as const
export type RedirectMethod = typeof REDIRECT_METHODS[number]

export const PAYMENT_METHOD_TYPES: ReadonlyArray<string> = [CARD_METHOD, ...REDIRECT_METHODS]

export const isRedirectMethod = (type: string): type is RedirectMethod => (REDIRECT_METHODS as ReadonlyArray<string>).includes(type)

/** What a connector takes when its definition does not say: cards. */
export const DEFAULT_CONNECTOR_METHODS: ReadonlyArray<string> = [CARD_METHOD]

/**
 * What routing asks a connector type for a card held in the service's vault (`pm_…`): a card still
 * (rules match it as `card`), but only for a PSP that takes raw card numbers.
 */
export const VAULT_CARD_METHOD = "card:vault"

/**
 * Whether a connector taking `methods` (and raw cards, when `rawCards`) can take a payment by
 * `method`. A method the core does not know (only a routing dry run can name one) is left to the
 * connection's own `supported_methods`.
 */
export const connectorTakes = (methods: ReadonlyArray<string> | undefined, method: string, rawCards = false): boolean =>
  method === VAULT_CARD_METHOD
    ? rawCards && (methods ?? DEFAULT_CONNECTOR_METHODS).includes(CARD_METHOD)
    : !PAYMENT_METHOD_TYPES.includes(method) || (methods ?? DEFAULT_CONNECTOR_METHODS).includes(method)
