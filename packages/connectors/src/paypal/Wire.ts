import { Schema } from "effect"

/**
 * PayPal's request and answer shapes, the fields this connector reads (Orders v2, Payments v2,
 * Webhooks v1, and the OAuth2 token endpoint). Unknown fields are ignored: PayPal adds them freely.
 */

export const Money = Schema.Struct({ currency_code: Schema.String, value: Schema.String })

export const Link = Schema.Struct({ href: Schema.String, rel: Schema.String, method: Schema.optional(Schema.String) })

/** What PayPal tells of a movement of money it keeps by id: its status, amount and our reference (`custom_id`). */
const Movement = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  amount: Schema.optional(Money),
  custom_id: Schema.optional(Schema.String)
})

/** An authorization of an order (intent AUTHORIZE) or one read from Payments v2. */
export const Authorization = Movement
export type Authorization = typeof Authorization.Type

/** A capture; `status_details.reason` says why one is PENDING. */
export const Capture = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  status_details: Schema.optional(Schema.Struct({ reason: Schema.optional(Schema.String) })),
  amount: Schema.optional(Money),
  custom_id: Schema.optional(Schema.String),
  supplementary_data: Schema.optional(Schema.Struct({
    related_ids: Schema.optional(Schema.Struct({
      order_id: Schema.optional(Schema.String),
      authorization_id: Schema.optional(Schema.String)
    }))
  }))
})
export type Capture = typeof Capture.Type

/** A refund of a capture. */
export const Refund = Movement
export type Refund = typeof Refund.Type

export const PurchaseUnit = Schema.Struct({
  reference_id: Schema.optional(Schema.String),
  custom_id: Schema.optional(Schema.String),
  amount: Schema.optional(Money),
  payments: Schema.optional(Schema.Struct({
    authorizations: Schema.optional(Schema.Array(Authorization)),
    captures: Schema.optional(Schema.Array(Capture)),
    refunds: Schema.optional(Schema.Array(Refund))
  }))
})
export type PurchaseUnit = typeof PurchaseUnit.Type

export const Order = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  intent: Schema.optional(Schema.String),
  purchase_units: Schema.optional(Schema.Array(PurchaseUnit)),
  links: Schema.optional(Schema.Array(Link))
})
export type Order = typeof Order.Type

/** PayPal's error answer: `name` (e.g. UNPROCESSABLE_ENTITY) and the fine-grained `details[].issue`. */
export const PayPalError = Schema.Struct({
  name: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String),
  debug_id: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Array(Schema.Struct({
    issue: Schema.String,
    description: Schema.optional(Schema.String)
  }))),
  links: Schema.optional(Schema.Array(Link))
})
export type PayPalError = typeof PayPalError.Type

/** `POST /v1/oauth2/token`'s answer (client credentials). */
export const AccessToken = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.String,
  expires_in: Schema.Number
})

export const VerificationAnswer = Schema.Struct({ verification_status: Schema.String })

/** A webhook event: its type and the resource (an order, a capture, an authorization or a refund) as it is now. */
export const WebhookEvent = Schema.Struct({
  id: Schema.String,
  event_type: Schema.String,
  resource_type: Schema.optional(Schema.String),
  resource: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type WebhookEvent = typeof WebhookEvent.Type

/** The `rel` of an order's link the payer approves at; `payer-action` when PayPal asks more of them (3DS). */
export const approvalLinkOf = (links: ReadonlyArray<typeof Link.Type> | undefined): string | undefined =>
  (links?.find((link) => link.rel === "payer-action") ?? links?.find((link) => link.rel === "approve"))?.href
