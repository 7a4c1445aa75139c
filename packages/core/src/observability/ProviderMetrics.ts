import { Clock, Effect, Exit } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import type { Payment } from "../payments/Payment.js"
import { isKnownFailureCode } from "../providers/FailureMessages.js"
import type { PaymentConnector } from "../providers/PaymentConnector.js"
import type { ProviderConnection } from "../providers/ProviderConnection.js"
import { countWith, observeWith, paymentsTotal, pspCallDuration } from "./ServiceMetrics.js"

/**
 * A payment names its connection (a name the merchant chose); metrics name the connection's type.
 * Every call to a PSP passes here first with the connection in hand, so the type is remembered by
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

const outcomeOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit)
    ? "answered"
    : Exit.isInterrupted(exit)
    ? "no_answer" // the deadline cut it
    : exit.cause._tag === "Fail" && exit.cause.error._tag === "ConnectorUnavailable"
    ? "unavailable"
    : "no_answer"

const timed = <A, E extends { readonly _tag: string }>(provider: string, operation: string, call: Effect.Effect<A, E>) =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    Effect.onExit(call, (exit) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (ended) => observeWith(pspCallDuration, { provider, operation, outcome: outcomeOf(exit) }, (ended - started) / 1000)
      )))

/** `connector` with each operation that talks to the PSP timed under its connection type. */
export const timedConnector = (connector: PaymentConnector, provider: string): PaymentConnector => {
  const completeAction = connector.completeAction
  return {
    ...connector,
    authorize: (request) => timed(provider, "authorize", connector.authorize(request)),
    syncPayment: (request) => timed(provider, "sync_payment", connector.syncPayment(request)),
    capture: (request) => timed(provider, "capture", connector.capture(request)),
    cancel: (request) => timed(provider, "cancel", connector.cancel(request)),
    refund: (request) => timed(provider, "refund", connector.refund(request)),
    syncRefund: (request) => timed(provider, "sync_refund", connector.syncRefund(request)),
    ...(completeAction === undefined ? {} : { completeAction: (request) => timed(provider, "complete_action", completeAction(request)) })
  }
}
