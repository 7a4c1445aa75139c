import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidCursor, Page, PageRequest } from "../domain/Pagination.js"
import type { Tenant } from "../domain/Tenant.js"
import type { RecordRepository } from "../lifecycle/Lifecycle.js"
import { memoryLeases } from "../memory/MemoryLeases.js"
import { pageOf } from "../memory/MemoryPaging.js"
import { memoryRecordRepository } from "../memory/MemoryRecordWrites.js"
import { MemoryStore } from "../memory/MemoryStore.js"
import type { FairShare, Leased, LeaseRequest } from "../ports/LeasedWork.js"
import type { CheckoutSessionListFilter, CheckoutSessionRecord as CheckoutSession } from "./CheckoutSession.js"

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
>() {
  static readonly layerMemory = Layer.effect(
    CheckoutSessionsRepository,
    Effect.map(MemoryStore, (store) => {
      type Row = { readonly organizationId: string; readonly session: CheckoutSession }
      const rows = () => store.table<Row>("checkout_sessions")
      const leases = memoryLeases(store, "checkout_sessions")
      const mine = (tenant: Tenant, row: Row | undefined) =>
        row !== undefined && row.organizationId === tenant.organizationId && row.session.livemode === tenant.livemode
      const find = (tenant: Tenant, id: string) =>
        Effect.sync(() => {
          const row = rows().get(id)
          return mine(tenant, row) ? Option.some(row!.session) : Option.none()
        })
      const save = (tenant: Tenant, session: CheckoutSession) =>
        Effect.sync(() => void rows().set(session.id, { organizationId: tenant.organizationId, session }))
      return {
        ...memoryRecordRepository(store, { save, find }),
        ownerOf: (id) =>
          Effect.sync(() =>
            Option.map(Option.fromNullable(rows().get(id)), (row) => ({
              tenant: { organizationId: row.organizationId, livemode: row.session.livemode },
              legacySecretDigest: null
            }))
          ),
        list: (tenant, filter, page) =>
          pageOf(
            [...rows().values()].filter((row) => mine(tenant, row)).map((row) => row.session),
            (session) => filter.status === undefined || session.status === filter.status,
            page
          ),
        finishClaim: (sessionId, token) => Effect.sync(() => leases.finish(sessionId, token)),
        claimExpired: (lease) =>
          Effect.sync(() =>
            leases.claimFair(
              "expired",
              [...rows().values()]
                .sort((a, b) => a.session.expires_at.epochMillis - b.session.expires_at.epochMillis)
                .map((row) => ({
                  id: row.session.id,
                  lane: [row.organizationId, row.session.livemode] as const,
                  waiting: row.session.status === "open" || row.session.status === "payment_failed",
                  due: !DateTime.lessThan(lease.now, row.session.expires_at),
                  item: {
                    tenant: { organizationId: row.organizationId, livemode: row.session.livemode },
                    sessionId: row.session.id
                  }
                })),
              lease,
              EXPIRY_SHARE
            )
          )
      }
    })
  )
}
