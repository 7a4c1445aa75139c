import { DateTime, Effect, Layer, Option } from "effect"
import type { CheckoutSessionRecord as CheckoutSession } from "../domain/checkout/CheckoutSession.js"
import type { Tenant } from "../domain/Tenant.js"
import { CheckoutSessionsRepository, EXPIRY_SHARE } from "../ports/CheckoutSessionsRepository.js"
import { memoryLeases } from "./MemoryLeases.js"
import { pageOf } from "./MemoryPaging.js"
import { memoryRecordRepository } from "./MemoryRecordWrites.js"
import { MemoryStore } from "./MemoryStore.js"

/** `CheckoutSessionsRepository` in memory: for the core's tests and `CoreMemory`, on the same paths production takes. */
export const MemoryCheckoutSessionsRepository = Layer.effect(
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
