import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"
import initial from "./migrations/0001_initial.js"
import leasesAndOutbox from "./migrations/0002_leases_and_outbox.js"
import webhooks from "./migrations/0003_webhooks.js"
import routingAndHealth from "./migrations/0004_routing_and_health.js"
import rateLimits from "./migrations/0005_rate_limits.js"
import subscriptions from "./migrations/0006_subscriptions.js"
import checkoutSessions from "./migrations/0007_checkout_sessions.js"
import checkoutSecretDigests from "./migrations/0008_checkout_secret_digests.js"
import attemptOutcomes from "./migrations/0009_attempt_outcomes.js"
import testClockAdvances from "./migrations/0010_test_clock_advances.js"
import deliveryOrder from "./migrations/0011_delivery_order.js"
import connectionDisplayNames from "./migrations/0012_connection_display_names.js"
import sandboxLedger from "./migrations/0013_sandbox_ledger.js"
import deliveryClaimIndexes from "./migrations/0014_delivery_claim_indexes.js"
import causingRequests from "./migrations/0015_causing_requests.js"
import organizationDisplayNames from "./migrations/0016_organization_display_names.js"
import connectionErrorTimes from "./migrations/0017_connection_error_times.js"
import keptAnswers from "./migrations/0018_kept_answers.js"
import fairClaims from "./migrations/0019_fair_claims.js"
import vaultCards from "./migrations/0020_vault_cards.js"
import vaultCardAccesses from "./migrations/0021_vault_card_accesses.js"
import disputes from "./migrations/0022_disputes.js"
import publishableKeys from "./migrations/0024_publishable_keys.js"
import files from "./migrations/0025_files.js"
import disputeReads from "./migrations/0026_dispute_reads.js"
import vaultCardSessions from "./migrations/0029_vault_card_sessions.js"
import vaultCardForAccess from "./migrations/0030_vault_card_for_access.js"

const migrations = {
  "0001_initial": initial,
  "0002_leases_and_outbox": leasesAndOutbox,
  "0003_webhooks": webhooks,
  "0004_routing_and_health": routingAndHealth,
  "0005_rate_limits": rateLimits,
  "0006_subscriptions": subscriptions,
  "0007_checkout_sessions": checkoutSessions,
  "0008_checkout_secret_digests": checkoutSecretDigests,
  "0009_attempt_outcomes": attemptOutcomes,
  "0010_test_clock_advances": testClockAdvances,
  "0011_delivery_order": deliveryOrder,
  "0012_connection_display_names": connectionDisplayNames,
  "0013_sandbox_ledger": sandboxLedger,
  "0014_delivery_claim_indexes": deliveryClaimIndexes,
  "0015_causing_requests": causingRequests,
  "0016_organization_display_names": organizationDisplayNames,
  "0017_connection_error_times": connectionErrorTimes,
  "0018_kept_answers": keptAnswers,
  "0019_fair_claims": fairClaims,
  "0020_vault_cards": vaultCards,
  "0021_vault_card_accesses": vaultCardAccesses,
  "0022_disputes": disputes,
  "0024_publishable_keys": publishableKeys,
  "0025_files": files,
  "0026_dispute_reads": disputeReads,
  "0029_vault_card_sessions": vaultCardSessions,
  "0030_vault_card_for_access": vaultCardForAccess
}

/** The id of the newest migration this build knows; `/readyz` compares the database with it. */
export const LATEST_MIGRATION = Math.max(...Object.keys(migrations).map((name) => Number(name.slice(0, 4))))

export const MIGRATIONS_TABLE = "effect_sql_migrations"

const migrate = Migrator.make({})

/**
 * Applies what is missing. Creating the bookkeeping table up front, with IF NOT EXISTS, lets several
 * processes start at once; the migrator then serializes them with a table lock.
 */
export const runMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`create table if not exists ${MIGRATIONS_TABLE} (
    migration_id integer primary key,
    created_at timestamptz not null default now(),
    name text not null
  )`)
  return yield* migrate({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE })
})

/** The newest migration applied to the connected database (0 when none). */
export const appliedMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ latest: number | null }>`select max(migration_id) as latest from ${sql(MIGRATIONS_TABLE)}`
  return rows[0]?.latest ?? 0
})
