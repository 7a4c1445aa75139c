import type { VaultedCardFacts } from "@orchestrator/core"

/** Cards whose facts one process keeps: past it, the oldest goes (a card paid with again comes back). */
export const CARD_FACTS_KEPT = 10_000

export interface CachedFacts {
  readonly livemode: boolean
  readonly facts: VaultedCardFacts
}

/**
 * A vaulted card's routing facts (brand, country, funding, last four, expiry, fingerprint, mode), kept
 * in this process after its first read: they never change for a card, so a payment decides its route
 * without a round trip of its own. Only the facts: the card's sealed data is read for each PSP call,
 * with the access record that goes with it. Keyed by organization and card, so a card id typed by
 * another organization is never a hit. A card destroyed through another process stays here: its
 * payment is then refused at sending (`payment_method_unusable`, no PSP called), not at creation.
 */
export const makeCardFactsCache = (capacity = CARD_FACTS_KEPT) => {
  const kept = new Map<string, CachedFacts>()
  const keyOf = (organizationId: string, id: string) => `${organizationId}\u0000${id}`
  return {
    get: (organizationId: string, id: string) => kept.get(keyOf(organizationId, id)),
    set: (organizationId: string, id: string, facts: CachedFacts) => {
      if (kept.size >= capacity) kept.delete(kept.keys().next().value!)
      kept.set(keyOf(organizationId, id), facts)
    },
    forget: (organizationId: string, id: string) => void kept.delete(keyOf(organizationId, id))
  }
}
