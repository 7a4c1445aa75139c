import type { HttpApiClient } from "@effect/platform"
import type { Api } from "@orchestrator/api/Api"
import type { Currency } from "@orchestrator/core/domain/Currency"
import type { CreatePayment } from "@orchestrator/core/payments/Payment"

export type Client = HttpApiClient.Client<typeof Api.groups[keyof typeof Api.groups], never, never>

export const EUR = "EUR" as Currency

let counter = 0
/** A fresh Idempotency-Key. */
export const newKey = () => `test-${Date.now()}-${counter++}-${Math.random().toString(36).slice(2)}`

export const paymentWith = (token: string, extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 1050,
  currency: EUR,
  payment_method: { type: "card", token },
  ...extra
})

export const json = (secret: string, key?: string): Record<string, string> => ({
  authorization: `Bearer ${secret}`,
  "content-type": "application/json",
  ...(key === undefined ? {} : { "idempotency-key": key })
})
