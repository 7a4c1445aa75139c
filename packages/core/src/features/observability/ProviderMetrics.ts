import { Effect } from "effect"
import type { Payment } from "../../domain/payments/Payment.js"
import { isKnownFailureCode } from "../../domain/providers/FailureMessages.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { Tenant } from "../../domain/Tenant.js"
import { countWith, paymentsTotal } from "./ServiceMetrics.js"

/**
 * A payment names its connection (a name the merchant chose); metrics name the connection's type.
 * Every payment call to a PSP passes here first with the connection in hand, so the type is remembered by
 * tenant and name, in a map kept small: past its size it starts over, costing at worst a few
 * `unknown` labels until the next calls.
 */
const MAX_REMEMBERED = 10_000
const typesByName = new Map<string, string>()

const keyOf = (tenant: Tenant, name: string) => `${tenant.organizationId}:${tenant.livemode ? "live" : "test"}:${name}`

export const rememberConnectionType = (tenant: Tenant, connection: ProviderConnection) => {
  const key = keyOf(tenant, connection.name)
  if (typesByName.get(key) === connection.type) return
  if (typesByName.size >= MAX_REMEMBERED) typesByName.clear()
  typesByName.set(key, connection.type)
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(["succeeded", "failed", "canceled"])

/** Counts a payment that has just entered a final status, once per payment. */
export const countFinishedPayment = (tenant: Tenant, payment: Payment) =>
  FINAL_STATUSES.has(payment.status)
    ? countWith(paymentsTotal, {
      provider: typesByName.get(keyOf(tenant, payment.provider)) ?? "unknown",
      outcome: payment.status,
      failure_code: payment.failure === null ? "" : isKnownFailureCode(payment.failure.code) ? payment.failure.code : "other"
    })
    : Effect.void
