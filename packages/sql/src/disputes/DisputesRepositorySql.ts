import { SqlClient } from "@effect/sql"
import { Dispute, DisputesRepository } from "@orchestrator/core"
import { DateTime, Effect, Layer, Option } from "effect"
import { equalsWhereGiven } from "../shared/KeysetPage.js"
import { recordRepositoryOf, recordRows, timeOrNull } from "../subscriptions/RecordRows.js"

type Ref = { readonly id: string; readonly organization_id: string; readonly livemode: boolean }
const refsOf = (found: ReadonlyArray<Ref>) =>
  found.map((row) => ({ tenant: { organizationId: row.organization_id, livemode: row.livemode }, disputeId: row.id }))

/** Disputes kept whole in `record`, with the columns their lists, the PSP's news and the deadline warnings query. */
export const DisputesRepositorySql = Layer.effect(
  DisputesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = recordRows(sql, "disputes", Dispute, (dispute) => [
      ["payment_id", sql`${dispute.payment_id}`],
      ["provider", sql`${dispute.provider}`],
      ["provider_dispute_id", sql`${dispute.provider_dispute_id}`],
      ["status", sql`${dispute.status}`],
      ["evidence_due_by", timeOrNull(sql, dispute.evidence_due_by)]
    ])
    const at = (time: DateTime.Utc) => sql`${DateTime.formatIso(time)}::timestamptz`
    return DisputesRepository.of({
      ...recordRepositoryOf(rows),
      findByPspId: (tenant, provider, pspDisputeId) =>
        sql`select d.record from disputes d where ${rows.ofTenant(tenant, "d")}
          and d.provider = ${provider} and d.provider_dispute_id = ${pspDisputeId}`.pipe(
          Effect.map((found) => Option.map(Option.fromNullable(found[0]), rows.decodeRow)),
          Effect.orDie
        ),
      list: (tenant, filter, page) =>
        rows.page(tenant, "d", page, [
          ...equalsWhereGiven(sql, { "d.status": filter.status, "d.payment_id": filter.paymentId, "d.provider": filter.provider }),
          ...(filter.dueBefore === undefined ? [] : [sql`d.evidence_due_by < ${at(filter.dueBefore)}`])
        ]),
      dueBefore: (dueBefore, limit) =>
        sql<Ref>`select id, organization_id, livemode from disputes
          where status = 'needs_response' and evidence_due_by < ${at(dueBefore)}
            and (record ->> 'evidence_due_soon') is distinct from '24h'
          order by evidence_due_by limit ${limit}`.pipe(
          Effect.map(refsOf),
          Effect.orDie
        ),
      awaitingOutcome: (quietSince, limit) =>
        sql<Ref>`select id, organization_id, livemode from disputes
          where status = 'under_review' and (record -> 'evidence_submission' ->> 'status') = 'submitted'
            and (record -> 'evidence_submission' ->> 'submitted_at')::timestamptz < ${at(quietSince)}
            and (record ->> 'provider_reported_at')::timestamptz < ${at(quietSince)}
            and (provider_read_at is null or provider_read_at < ${at(quietSince)})
          order by (record -> 'evidence_submission' ->> 'submitted_at')::timestamptz limit ${limit}`.pipe(Effect.map(refsOf), Effect.orDie),
      markRead: (ref, time) =>
        sql`update disputes set provider_read_at = ${at(time)} where id = ${ref.disputeId} and organization_id = ${ref.tenant.organizationId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
