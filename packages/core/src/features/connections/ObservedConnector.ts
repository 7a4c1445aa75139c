import { Cause, Clock, Effect, Exit } from "effect"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { PaymentConnector } from "../../ports/PaymentConnector.js"
import { observeWith, pspCallDuration } from "../observability/ServiceMetrics.js"
import { annotateSpan, traced } from "../observability/Traced.js"

/** How a call ended, for its span: the answer's kind (`Authorized`, `Refused`, …) or the failure's. */
const outcomeOf = (exit: Exit.Exit<unknown, unknown>): { readonly outcome: string; readonly code?: string } => {
  if (Exit.isSuccess(exit)) {
    const value = exit.value as { readonly _tag?: unknown; readonly code?: unknown } | undefined
    const outcome = typeof value === "object" && value !== null && typeof value._tag === "string" ? value._tag : "Done"
    return typeof value?.code === "string" ? { outcome, code: value.code } : { outcome }
  }
  if (Cause.isInterruptedOnly(exit.cause)) return { outcome: "Interrupted" }
  const failure = Cause.failureOption(exit.cause)
  const tag = failure._tag === "Some" ? (failure.value as { readonly _tag?: unknown })._tag : undefined
  return { outcome: typeof tag === "string" ? tag : "Defect" }
}

/** How a call ended, for the latency histogram's bounded label. */
const metricOutcomeOf = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isSuccess(exit)
    ? "answered"
    : Cause.isInterruptedOnly(exit.cause)
    ? "no_answer" // the deadline cut it
    : Cause.failureOption(exit.cause).pipe((failure) =>
      failure._tag === "Some" && (failure.value as { readonly _tag?: unknown })._tag === "ConnectorUnavailable" ? "unavailable" : "no_answer"
    )

/**
 * One call to the PSP, timed once for both of what observes it: the `orchestrator_psp_call_duration_seconds`
 * histogram (by connection type, operation and outcome) and a client span `psp <operation>`: the connection (id, name, type), the
 * operation, how it ended (`psp.outcome`, and `psp.outcome_code` for a refusal) and how long it took.
 * Only ids and codes: never the request (card token, customer), never the connection's credentials.
 */
const observed = <A, E>(
  connection: ProviderConnection,
  operation: string,
  call: Effect.Effect<A, E>,
  ids: Readonly<Record<string, string | undefined>> = {}
): Effect.Effect<A, E> =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    call.pipe(
      Effect.onExit((exit) =>
        Effect.flatMap(Clock.currentTimeMillis, (ended) => {
          const { code, outcome } = outcomeOf(exit)
          return Effect.zipRight(
            observeWith(pspCallDuration, { provider: connection.type, operation, outcome: metricOutcomeOf(exit) }, (ended - started) / 1000),
            annotateSpan({
              "psp.outcome": outcome,
              ...(code === undefined ? {} : { "psp.outcome_code": code }),
              "psp.latency_ms": ended - started
            })
          )
        })
      )
    )).pipe(
      traced(`psp ${operation}`, () => ({
        kind: "client",
        attributes: {
          "psp.connection_id": connection.id,
          "psp.connection_name": connection.name,
          "psp.provider": connection.type,
          "psp.operation": operation,
          "psp.livemode": connection.livemode,
          ...Object.fromEntries(Object.entries(ids).filter(([, value]) => value !== undefined))
        }
      }))
    )

/** The connector with every call it makes to its PSP timed and traced (webhook verification is local: none). */
export const observedConnector = (connection: ProviderConnection, connector: PaymentConnector): PaymentConnector => {
  const subscriptions = connector.subscriptions
  const completeAction = connector.completeAction
  return {
    ...connector,
    authorize: (request) =>
      observed(connection, "authorize", connector.authorize(request), { "payment.id": request.paymentId, "psp.reference": request.reference }),
    syncPayment: (request) => observed(connection, "sync_payment", connector.syncPayment(request), { "psp.reference": request.reference }),
    capture: (request) => observed(connection, "capture", connector.capture(request), { "psp.reference": request.reference }),
    cancel: (request) => observed(connection, "cancel", connector.cancel(request), { "psp.reference": request.reference }),
    refund: (request) => observed(connection, "refund", connector.refund(request), { "psp.reference": request.reference }),
    syncRefund: (request) => observed(connection, "sync_refund", connector.syncRefund(request), { "psp.reference": request.reference }),
    ...(completeAction === undefined ? {} : {
      completeAction: (request) => observed(connection, "complete_action", completeAction(request), { "psp.reference": request.reference })
    }),
    ...(subscriptions === undefined ? {} : {
      subscriptions: {
        create: (request) => observed(connection, "subscription_create", subscriptions.create(request), { "psp.reference": request.reference }),
        cancel: (request) => observed(connection, "subscription_cancel", subscriptions.cancel(request)),
        advance: (request) => observed(connection, "subscription_advance", subscriptions.advance(request)),
        updatePaymentMethod: (request) => observed(connection, "subscription_update_payment_method", subscriptions.updatePaymentMethod(request))
      }
    })
  }
}
