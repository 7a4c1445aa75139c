import { Schema } from "effect"
import type { SandboxCharge, SandboxNotification, SandboxRefund, SandboxSubscription } from "./SandboxLedger.js"

/** `bigint` arrives as a string from `pg` and as a number from PGlite. */
const BigIntColumn = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A field read from the snake_case column `key`. */
const column = <A, I>(schema: Schema.Schema<A, I>, key: string) => Schema.propertySignature(schema).pipe(Schema.fromKey(key))

const ChargeRow = Schema.Struct({
  id: Schema.String,
  connectionId: column(Schema.String, "connection_id"),
  reference: Schema.String,
  merchantReference: column(Schema.String, "merchant_reference"),
  amount: BigIntColumn,
  currency: Schema.String,
  token: Schema.String,
  capture: Schema.Boolean,
  status: Schema.Literal("requires_action", "authorized", "succeeded", "failed", "canceled"),
  amountCaptured: column(BigIntColumn, "amount_captured"),
  amountRefunded: column(BigIntColumn, "amount_refunded"),
  captureReference: column(Schema.NullOr(Schema.String), "capture_reference"),
  failureCode: column(Schema.NullOr(Schema.String), "failure_code"),
  failureMessage: column(Schema.NullOr(Schema.String), "failure_message"),
  returnUrl: column(Schema.String, "return_url"),
  createdAtMillis: column(BigIntColumn, "created_at_millis")
})

const RefundRow = Schema.Struct({
  id: Schema.String,
  connectionId: column(Schema.String, "connection_id"),
  reference: Schema.String,
  chargeId: column(Schema.String, "charge_id"),
  amount: BigIntColumn,
  status: Schema.Literal("pending", "succeeded", "failed"),
  failureCode: column(Schema.NullOr(Schema.String), "failure_code"),
  failureMessage: column(Schema.NullOr(Schema.String), "failure_message"),
  createdAtMillis: column(BigIntColumn, "created_at_millis"),
  /** Null (or absent) unless the refund is pending. */
  settleAtMillis: Schema.optionalWith(Schema.NullOr(BigIntColumn), { default: () => null }).pipe(
    Schema.fromKey("settle_at_millis")
  )
})

const NotificationRow = Schema.Struct({
  id: Schema.String,
  connectionId: column(Schema.String, "connection_id"),
  payload: Schema.String,
  createdAtMillis: column(BigIntColumn, "created_at_millis")
})

/** A subscription is kept whole as JSON (written by the ledger itself); only what is queried has columns of its own. */
const SubscriptionRow = Schema.Struct({ state: Schema.parseJson() })

const decodeCharge = Schema.decodeUnknownSync(ChargeRow)
const decodeRefund = Schema.decodeUnknownSync(RefundRow)
const decodeNotification = Schema.decodeUnknownSync(NotificationRow)
const decodeSubscription = Schema.decodeUnknownSync(SubscriptionRow)

export const toCharge = (row: unknown): SandboxCharge => decodeCharge(row)
export const toRefund = (row: unknown): SandboxRefund => decodeRefund(row)
export const toNotification = (row: unknown): SandboxNotification => decodeNotification(row)
export const toSubscription = (row: unknown): SandboxSubscription => decodeSubscription(row).state as SandboxSubscription
