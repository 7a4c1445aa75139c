import { InvalidCursor, type Page, type PageRequest, PaymentMethodAccess, type Tenant } from "@orchestrator/core"
import { DateTime, Effect } from "effect"
import type { VaultStore } from "../storage/VaultStore.js"

/** One page of a card's access log, newest first, each record's id `pmacc_<seq>` (the cursor of the next page). */
export const accessPageOf = (
  store: VaultStore["Type"],
  tenant: Tenant,
  cardId: string,
  page: PageRequest
): Effect.Effect<Page<PaymentMethodAccess>, InvalidCursor> =>
  Effect.gen(function*() {
    const cursor = page.startingAfter === undefined ? undefined : /^pmacc_([1-9][0-9]{0,17})$/.exec(page.startingAfter)
    if (cursor === null) return yield* new InvalidCursor({ cursor: page.startingAfter! })
    const rows = yield* store.accessPage(tenant.organizationId, cardId, cursor === undefined ? undefined : Number(cursor[1]), page.limit + 1)
    const data = rows.slice(0, page.limit).map((row) =>
      new PaymentMethodAccess({
        object: "payment_method_access",
        id: `pmacc_${row.seq}`,
        purpose: row.purpose,
        payment_id: row.paymentId,
        connection: row.connection,
        created_at: DateTime.unsafeMake(row.atMillis)
      })
    )
    return { data, hasMore: rows.length > page.limit }
  })
