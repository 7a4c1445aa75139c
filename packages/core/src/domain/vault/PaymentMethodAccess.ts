import { Schema } from "effect"
import { field } from "../Field.js"
import { ListOf } from "../Pagination.js"
import { Timestamp } from "../Timestamp.js"

/** One decryption of a vaulted card, as its access log keeps it (PCI DSS 10.2): who asked and why, never the card. */
export class PaymentMethodAccess extends Schema.Class<PaymentMethodAccess>("PaymentMethodAccess")({
  object: field(Schema.Literal("payment_method_access"), "Always `payment_method_access`."),
  id: field(Schema.String, "The record's id (`pmacc_…`), a cursor for `starting_after`."),
  purpose: field(Schema.String, "Why the card was decrypted: `authorization` (sent to a PSP to pay)."),
  payment_id: field(Schema.NullOr(Schema.String), "The payment it was decrypted for; `null` when none."),
  connection: field(Schema.NullOr(Schema.String), "The provider connection (its name) the card was sent to; `null` when none."),
  created_at: field(Timestamp, "When it was decrypted (ISO 8601 UTC).")
}) {}

export const PaymentMethodAccessList = ListOf(PaymentMethodAccess).annotations({ identifier: "PaymentMethodAccessList" })
