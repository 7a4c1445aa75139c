import type { SqlClient } from "@effect/sql"
import type { Tenant } from "@orchestrator/core"

/** The rows of `alias` that one tenant (organization and mode) may see: every query's first condition. */
export const tenantScope = (sql: SqlClient.SqlClient, alias: string) => (tenant: Tenant) =>
  sql`${sql(`${alias}.organization_id`)} = ${tenant.organizationId} and ${sql(`${alias}.livemode`)} = ${tenant.livemode}`
