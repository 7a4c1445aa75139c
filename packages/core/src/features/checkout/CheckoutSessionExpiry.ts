import { Effect } from "effect"
import { type CheckoutSessionRef, CheckoutSessionsRepository, EXPIRY_SHARE } from "../../ports/CheckoutSessionsRepository.js"
import type { Job } from "../../ports/Jobs.js"
import { drainLeased } from "../jobs/LeasedDrain.js"
import { traced } from "../observability/Traced.js"
import type { CheckoutSessionCatchUp } from "./CheckoutSessionCatchUp.js"

/**
 * The `expire-checkout-sessions` job: sessions whose time is up are expired by catching them up, as
 * a read would, so one nobody reads again still ends (and says so in its events).
 */
export const makeCheckoutSessionExpiry = (catchUp: CheckoutSessionCatchUp) =>
  Effect.gen(function*() {
    const repository = yield* CheckoutSessionsRepository
    const { current } = catchUp

    const expire = (ref: CheckoutSessionRef) => Effect.asVoid(Effect.ignore(current(ref.tenant, ref.sessionId)))

    const expireDue = drainLeased({
      claim: (lease) => repository.claimExpired(lease),
      handle: ({ item, token }) => Effect.ensuring(expire(item), repository.finishClaim(item.sessionId, token)),
      leaseFor: "30 seconds",
      concurrency: 2,
      share: EXPIRY_SHARE,
      maxPerPass: 500
    }).pipe(traced("CheckoutSessions.expireDue"))

    const job: Job = { name: "expire-checkout-sessions", every: "30 seconds", run: expireDue }
    return { expire, job }
  })
