import { Schema } from "effect"
import { Currency } from "../Currency.js"
import { DisputeReason, DisputeStage, DisputeStatus } from "./Dispute.js"

/**
 * What a PSP said about a dispute at one moment, normalized by its connector: a notification, or a
 * read of the PSP's dispute. Plain data (times in epoch milliseconds) so it can wait in the database
 * with the notification that carried it. `occurredAtMillis` is when the PSP says it happened: the
 * latest fact wins, whatever order they arrive in.
 */
export const DisputeFact = Schema.Struct({
  pspDisputeId: Schema.String,
  /** Our payment's reference (its attempt id) where the PSP echoes it, else `null`. */
  reference: Schema.NullOr(Schema.String),
  pspPaymentId: Schema.NullOr(Schema.String),
  status: DisputeStatus,
  stage: DisputeStage,
  amount: Schema.Int,
  currency: Currency,
  reason: DisputeReason,
  reasonCode: Schema.NullOr(Schema.String),
  evidenceDueByMillis: Schema.NullOr(Schema.Number),
  fee: Schema.NullOr(Schema.Struct({ amount: Schema.Int, currency: Currency })),
  occurredAtMillis: Schema.Number
})
export type DisputeFact = typeof DisputeFact.Type
