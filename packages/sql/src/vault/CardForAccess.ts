import type { SqlClient } from "@effect/sql"
import type { Tenant } from "@orchestrator/core"

/**
 * A card read for a PSP call through the vault's own function (migration 0030): its access
 * appended, its sealed columns (`key_version`, `wrapped_key`, `ciphertext`, `brand`,
 * `network_transaction_id`) returned; no row when the tenant has no such card. The vault's statement
 * and a vaulted payment's creation both read a card this way.
 */
export const cardForAccess = (
  sql: SqlClient.SqlClient,
  tenant: Pick<Tenant, "organizationId" | "livemode">,
  access: {
    readonly cardId: string
    readonly purpose: string
    readonly paymentId: string | null
    readonly connection: string | null
    readonly atMillis: number
  }
) =>
  sql`select * from vault.card_for_access(${tenant.organizationId}, ${access.cardId}, ${tenant.livemode}, ${access.purpose},
    ${access.paymentId}, ${access.connection}, ${new Date(access.atMillis).toISOString()}::timestamptz)`
