import { Schema } from "effect"
import { field, optionalField } from "../Field.js"
import { RequestBody } from "../RequestBody.js"
import { Timestamp } from "../Timestamp.js"

/** What may be shown of a vaulted card: never more than its last four digits. */
export class VaultedCardFacts extends Schema.Class<VaultedCardFacts>("VaultedCardFacts")({
  brand: field(Schema.String, "The card's brand, from its number (`visa`, `mastercard`, `amex`, … or `unknown`)."),
  last4: field(Schema.String, "The number's last four digits."),
  exp_month: field(Schema.Int, "Expiry month, 1 to 12."),
  exp_year: field(Schema.Int, "Expiry year, four digits."),
  country: field(Schema.NullOr(Schema.String), "The issuing country (ISO 3166-1 alpha-2) when the BIN is known; else `null`."),
  funding: field(Schema.Literal("credit", "debit", "prepaid", "unknown"), "How the card is funded, when the BIN is known."),
  fingerprint: field(Schema.String, "The same card number has the same fingerprint within your organization, and only there.")
}) {}

/** A card held in the service's vault (`pm_…`): chargeable on any connection whose PSP takes raw cards. */
export class PaymentMethodResource extends Schema.Class<PaymentMethodResource>("PaymentMethodResource")({
  object: field(Schema.Literal("payment_method"), "Always `payment_method`."),
  id: field(Schema.String, "The payment method's id (`pm_…`): the `token` of a payment's `payment_method` (`type: card`)."),
  type: field(Schema.Literal("card"), "Always `card`."),
  card: field(VaultedCardFacts, "What may be shown of the card."),
  created_at: field(Timestamp, "When the card was vaulted (ISO 8601 UTC)."),
  livemode: field(Schema.Boolean, "`true` for a live card, `false` for a test-mode one; a test-mode card never pays live.")
}) {}

/** The answer to `DELETE /v1/payment_methods/{id}`: the card's data is destroyed, the token refused from then on. */
export class DeletedPaymentMethod extends Schema.Class<DeletedPaymentMethod>("DeletedPaymentMethod")({
  object: field(Schema.Literal("payment_method"), "Always `payment_method`."),
  id: field(Schema.String, "The payment method's id (`pm_…`)."),
  deleted: field(Schema.Literal(true), "Always `true`: the card's data is destroyed.")
}) {}

/** Text of at most `max` characters, checked by the vault itself (so a bad number is a clear 400, not a schema error). */
const CardText = (max: number) => Schema.String.pipe(Schema.maxLength(max))

/** Body of `POST /v1/payment_methods`: the raw card, sent server to server with the secret key. */
export const CreatePaymentMethod = RequestBody("CreatePaymentMethod", {
  type: field(Schema.Literal("card"), "Always `card`."),
  card: field(
    Schema.Struct({
      number: field(CardText(40), "The card number, 13 to 19 digits (spaces allowed); checked with the Luhn formula."),
      exp_month: field(Schema.Int, "Expiry month, 1 to 12."),
      exp_year: field(Schema.Int, "Expiry year, four digits; an expired card is refused."),
      cvc: optionalField(CardText(8), "The security code, 3 digits (4 for American Express): kept in memory for the first authorization only."),
      holder_name: optionalField(CardText(200), "The cardholder's name as printed.")
    }),
    "The card."
  )
})
export type CreatePaymentMethod = typeof CreatePaymentMethod.Type
