import type { PspAnswer } from "../FakePspServer.js"

/**
 * The fake Mollie's records and how it shows them, in the shapes of Mollie's published document
 * (`payment-response`, `entity-refund-response`, `capture-response`, `error-response`).
 */

export type MollieStatus = "open" | "pending" | "authorized" | "paid" | "canceled" | "expired" | "failed"

export interface MollieAmount {
  readonly currency: string
  readonly value: string
}

export interface FakeMolliePayment {
  readonly id: string
  readonly mode: "test" | "live"
  readonly createdAt: string
  readonly amount: MollieAmount
  readonly description: string
  readonly method: string | null
  readonly redirectUrl: string
  readonly webhookUrl: string | null
  readonly metadata: unknown
  readonly captureMode: "automatic" | "manual"
  status: MollieStatus
  statusReason: { readonly code: string; readonly message: string } | null
  /** Minor units captured and refunded, kept as integers; shown as Mollie's decimal strings. */
  captured: number
  refunded: number
  /** The card, once the customer paid by card. */
  card: { readonly label: string; readonly last4: string; readonly country: string } | null
}

export interface FakeMollieRefund {
  readonly id: string
  readonly paymentId: string
  readonly amount: MollieAmount
  readonly description: string
  readonly metadata: unknown
  readonly createdAt: string
  status: "queued" | "pending" | "processing" | "refunded" | "failed" | "canceled"
}

export interface FakeMollieCapture {
  readonly id: string
  readonly paymentId: string
  readonly amount: MollieAmount
  readonly metadata: unknown
  readonly createdAt: string
  status: "pending" | "succeeded" | "failed"
}

/** The decimals Mollie wants per currency: the ISO ones (JPY, ISK and the like none, the rest two). */
const ZERO_DECIMALS = new Set(["JPY", "ISK", "KRW", "CLP"])

export const decimalsOf = (currency: string) => ZERO_DECIMALS.has(currency) ? 0 : 2

/** A Mollie decimal string in minor units, if it has exactly the currency's decimals (Mollie refuses any other). */
export const minorOf = (amount: MollieAmount): number | undefined => {
  const decimals = decimalsOf(amount.currency)
  const pattern = decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${decimals}}$`)
  return pattern.test(amount.value) ? Number(amount.value.replace(".", "")) : undefined
}

/** Minor units as Mollie's decimal string of the currency. */
export const decimalOf = (minor: number, currency: string): MollieAmount => {
  const decimals = decimalsOf(currency)
  const digits = String(minor).padStart(decimals + 1, "0")
  return { currency, value: decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` }
}

const link = (href: string, type = "application/hal+json") => ({ href, type })
const DOCS = link("https://docs.mollie.com/reference/v2/payments-api", "text/html")

/** Mollie's error answer. */
export const mollieError = (status: number, title: string, detail: string, field?: string): PspAnswer => [status, {
  status,
  title,
  detail,
  ...(field === undefined ? {} : { field }),
  _links: { documentation: DOCS }
}]

export const PROFILE_ID = "pfl_FakeProfile1"

/** A payment as Mollie answers it; `checkoutUrl` while the customer has something to do. */
export const paymentJson = (origin: string, payment: FakeMolliePayment) => {
  const self = `${origin}/v2/payments/${payment.id}`
  const checkout = payment.status === "open" ? { checkout: link(`${origin}/fake/3ds/${payment.id}`, "text/html") } : {}
  return {
    resource: "payment",
    id: payment.id,
    mode: payment.mode,
    createdAt: payment.createdAt,
    amount: payment.amount,
    ...(payment.captured > 0 ? { amountCaptured: decimalOf(payment.captured, payment.amount.currency) } : {}),
    ...(payment.refunded > 0 ? { amountRefunded: decimalOf(payment.refunded, payment.amount.currency) } : {}),
    description: payment.description,
    // Mollie's document allows no null here: a payment whose method the customer has yet to pick has none.
    ...(payment.method === null ? {} : { method: payment.method }),
    metadata: payment.metadata,
    status: payment.status,
    ...(payment.statusReason === null ? {} : { statusReason: payment.statusReason }),
    isCancelable: payment.status === "open",
    captureMode: payment.captureMode,
    profileId: PROFILE_ID,
    sequenceType: "oneoff",
    redirectUrl: payment.redirectUrl,
    webhookUrl: payment.webhookUrl,
    ...(payment.card === null ? {} : {
      details: { cardLabel: payment.card.label, cardNumber: payment.card.last4, cardCountryCode: payment.card.country }
    }),
    _links: {
      self: link(self),
      ...checkout,
      dashboard: link(`https://my.mollie.com/dashboard/payments/${payment.id}`, "text/html"),
      ...(payment.refunded > 0 ? { refunds: link(`${self}/refunds`) } : {}),
      documentation: DOCS
    }
  }
}

export const refundJson = (origin: string, mode: string, refund: FakeMollieRefund) => ({
  resource: "refund",
  id: refund.id,
  mode,
  amount: refund.amount,
  status: refund.status,
  createdAt: refund.createdAt,
  description: refund.description,
  metadata: refund.metadata,
  paymentId: refund.paymentId,
  _links: {
    self: link(`${origin}/v2/payments/${refund.paymentId}/refunds/${refund.id}`),
    payment: link(`${origin}/v2/payments/${refund.paymentId}`),
    documentation: DOCS
  }
})

export const captureJson = (origin: string, mode: string, capture: FakeMollieCapture) => ({
  resource: "capture",
  id: capture.id,
  mode,
  amount: capture.amount,
  status: capture.status,
  metadata: capture.metadata,
  createdAt: capture.createdAt,
  paymentId: capture.paymentId,
  _links: {
    self: link(`${origin}/v2/payments/${capture.paymentId}/captures/${capture.id}`),
    payment: link(`${origin}/v2/payments/${capture.paymentId}`),
    documentation: DOCS
  }
})

/** A chargeback of a paid payment (Mollie's `entity-chargeback`): the bank took the amount back, until it is reversed. */
export interface FakeMollieChargeback {
  readonly id: string
  readonly paymentId: string
  readonly amount: MollieAmount
  /** The bank's reason, which Mollie gives for SEPA Direct Debit only. */
  readonly reason: { readonly code: string; readonly description: string } | null
  readonly createdAt: string
  reversedAt: string | null
}

export const chargebackJson = (origin: string, chargeback: FakeMollieChargeback) => ({
  resource: "chargeback",
  id: chargeback.id,
  amount: chargeback.amount,
  reason: chargeback.reason,
  paymentId: chargeback.paymentId,
  settlementAmount: { currency: chargeback.amount.currency, value: `-${chargeback.amount.value}` },
  createdAt: chargeback.createdAt,
  reversedAt: chargeback.reversedAt,
  _links: {
    self: link(`${origin}/v2/payments/${chargeback.paymentId}/chargebacks/${chargeback.id}`),
    payment: link(`${origin}/v2/payments/${chargeback.paymentId}`),
    documentation: link("https://docs.mollie.com/reference/v2/chargebacks-api", "text/html")
  }
})

/** A list page as Mollie answers it: `count`, `_embedded`, and no further pages in the fake. */
export const listJson = (origin: string, path: string, name: string, items: ReadonlyArray<unknown>) => ({
  count: items.length,
  _embedded: { [name]: items },
  _links: { self: link(`${origin}${path}`), previous: null, next: null, documentation: DOCS }
})
