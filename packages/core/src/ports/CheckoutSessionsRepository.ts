import { Context, Effect, Option } from "effect"
import type { CheckoutSessionListFilter, CheckoutSessionRecord as CheckoutSession } from "../domain/checkout/CheckoutSession.js"
import type { FairShare, Leased, LeaseRequest } from "../domain/LeasedWork.js"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "./RecordStore.js"

/** How expiry shares its workers (see `FairShare`): one session of an organization's mode at a time. */
export const EXPIRY_SHARE: FairShare = { perTenant: 1, perLane: 1 }

export interface CheckoutSessionRef {
  readonly tenant: Tenant
  readonly sessionId: string
}

/** Whose session an id names, and the digest of its secret when it was made before secrets were derived. */
export interface CheckoutSessionOwner {
  readonly tenant: Tenant
  readonly legacySecretDigest: string | null
}

export class CheckoutSessionsRepository extends Context.Tag("core/CheckoutSessionsRepository")<
  CheckoutSessionsRepository,
  RecordRepository<CheckoutSession> & {
    /** Whose session this is, for a browser that holds only its client secret. */
    readonly ownerOf: (id: string) => Effect.Effect<Option.Option<CheckoutSessionOwner>>
    readonly list: (
      tenant: Tenant,
      filter: CheckoutSessionListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<CheckoutSession>, InvalidCursor>
    /**
     * Leases sessions still `open` or `payment_failed` whose `expires_at` has passed, oldest first,
     * fairly (see `FairShare`; each organization's mode is a lane).
     */
    readonly claimExpired: (lease: LeaseRequest) => Effect.Effect<ReadonlyArray<Leased<CheckoutSessionRef>>>
    /** The worker has finished with a claimed session. Only while `token` still holds it. */
    readonly finishClaim: (sessionId: string, token: string) => Effect.Effect<void>
  }
>() {}
