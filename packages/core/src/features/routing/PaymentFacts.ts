import { Effect } from "effect"
import type { CardDetails } from "../../domain/providers/ConnectorOutcomes.js"
import type { RoutingFacts } from "../../domain/routing/RoutingRule.js"
import type { Connectors } from "../connections/Connectors.js"

/** The payment method as a payment request (or the dry run) gives it. */
export interface MethodInput {
  readonly type: string
  readonly token?: string | undefined
  readonly brand?: string | undefined
  readonly last4?: string | undefined
  readonly country?: string | undefined
}

/** What is known of the card before any PSP is asked: the request's words first, then the token's. */
export interface KnownCard {
  readonly brand: string | null
  readonly last4: string | null
  /** Upper case, as rules compare it. */
  readonly country: string | null
}

const noCard: CardDetails = { brand: null, last4: null, country: null }

/** The card behind a token, when a connector type documents it (the sandbox's test tokens); no PSP is called. */
const cardOfToken = (connectors: Connectors["Type"], token: string | undefined) =>
  Effect.gen(function*() {
    if (token === undefined) return noCard
    for (const type of connectors.types) {
      const definition = yield* Effect.orDie(connectors.definition(type))
      const card = definition.cardOfToken?.(token)
      if (card !== undefined) return card
    }
    return noCard
  })

/**
 * The card a payment is routed by, and stored with until the PSP says more: what the request says of
 * it, else what its token says. The one function real payments and the dry run share, so that the
 * dry run answers what a payment does.
 */
export const knownCardOf = (connectors: Connectors["Type"], method: MethodInput) =>
  Effect.map(cardOfToken(connectors, method.token), (card): KnownCard => ({
    brand: method.brand ?? card.brand,
    last4: method.last4 ?? card.last4,
    country: (method.country ?? card.country)?.toUpperCase() ?? null
  }))

/** The facts routing rules are matched against, for a payment of `amount` `currency` with `card`. */
export const routingFactsOf = (
  payment: { readonly amount: number; readonly currency: string; readonly payment_method: MethodInput },
  card: KnownCard
): RoutingFacts => ({
  amount: payment.amount,
  currency: payment.currency,
  method: payment.payment_method.type,
  country: card.country
})
