/**
 * The front door of the SQL storage: every storage port of the core over one `SqlClient`
 * (`StorageSql`), and that client for a configuration, migrated (`Database.layer`): PostgreSQL at a
 * URL, or the embedded PGlite in a directory or in memory.
 */
export * as Database from "./Database.js"
export type { DatabaseConfig } from "./Database.js"
export { LATEST_MIGRATION, runMigrations } from "./Migrations.js"
export { default as checkoutSecretDigests } from "./migrations/0008_checkout_secret_digests.js"
export { refreshScrapeGauges } from "./observability/ScrapeGauges.js"
export * as PgliteClient from "./PgliteClient.js"
export { untraced } from "./shared/Untraced.js"
export { StorageSql } from "./StorageSql.js"
export { cardForAccess } from "./vault/CardForAccess.js"
