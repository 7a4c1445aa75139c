import {
  AuthorizationOutcome,
  type AuthorizeRequest,
  type CardDetails,
  ConnectorUnavailable,
  ModificationOutcome,
  type PaymentConnector,
  RefundOutcome
} from "@orchestrator/core/providers/PaymentConnector"
import type { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { makeId } from "@orchestrator/core/shared/Ids"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { type SandboxCharge, SandboxLedger } from "./SandboxLedger.js"
import { SandboxSettings } from "./SandboxSettings.js"
import { cardForToken } from "./SandboxTokens.js"

const unknownCard: CardDetails = { brand: null, last4: null, country: null }

/** FNV-1a: the same reference always lands on the same side of `failure_rate`, retries included. */
const unitInterval = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) / 0x1_0000_0000
}

export const challengePath = (chargeId: string) => `/sandbox/3ds/${chargeId}`

/** How the sandbox reports a charge it holds, in the connector port's terms. */
export const outcomeOfCharge = (charge: SandboxCharge, baseUrl: string): AuthorizationOutcome => {
  const card = cardForToken(charge.token)?.card ?? unknownCard
  switch (charge.status) {
    case "succeeded":
      return AuthorizationOutcome.Authorized({ pspPaymentId: charge.id, captured: true, card })
    case "authorized":
      return AuthorizationOutcome.Authorized({ pspPaymentId: charge.id, captured: false, card })
    case "requires_action":
      return AuthorizationOutcome.ActionRequired({
        pspPaymentId: charge.id,
        redirectUrl: `${baseUrl}${challengePath(charge.id)}`,
        card
      })
    case "failed":
    case "canceled":
      return AuthorizationOutcome.Refused({
        pspPaymentId: charge.id,
        code: charge.failureCode ?? "canceled",
        message: charge.failureMessage ?? "The payment was canceled.",
        retryable: charge.failureCode === "processing_error",
        card
      })
  }
}

/**
 * The built-in simulated PSP (decisions §3). Test tokens decide outcomes; each connection's settings
 * inject latency, outages and random processing errors. It keeps its own ledger and honours its
 * idempotency reference like a real PSP: the same reference never charges twice.
 */
export const makeSandboxConnector = (
  connection: ProviderConnection,
  ledger: SandboxLedger["Type"],
  baseUrl: string
): PaymentConnector => {
  const settings = Schema.decodeUnknownSync(SandboxSettings)(connection.settings)

  /** Outages refuse before anything happens; latency is paid after the work is done. */
  const respond = <A>(work: Effect.Effect<A>): Effect.Effect<A, ConnectorUnavailable> =>
    settings.outage
      ? Effect.fail(new ConnectorUnavailable({ reason: `sandbox connection '${connection.name}' has an outage` }))
      : Effect.tap(work, () => settings.latency_ms > 0 ? Effect.sleep(Duration.millis(settings.latency_ms)) : Effect.void)

  const newCharge = (request: AuthorizeRequest): Effect.Effect<SandboxCharge> =>
    Effect.map(Clock.currentTimeMillis, (millis) => {
      const testCard = cardForToken(request.paymentMethod.token)
      const base = {
        id: makeId("ch", millis),
        connectionId: connection.id,
        reference: request.reference,
        merchantReference: request.paymentId,
        amount: request.amount,
        currency: request.currency,
        token: request.paymentMethod.token,
        capture: request.capture,
        amountCaptured: 0,
        amountRefunded: 0,
        failureCode: null,
        failureMessage: null,
        returnUrl: request.returnUrl,
        createdAtMillis: millis
      }
      const approved = { ...base, status: request.capture ? "succeeded" as const : "authorized" as const }
      const fail = (code: string, message: string): SandboxCharge => ({
        ...base,
        status: "failed",
        failureCode: code,
        failureMessage: message
      })
      if (testCard === undefined) {
        return fail("invalid_payment_method", `The sandbox does not know the token '${request.paymentMethod.token}'.`)
      }
      if (settings.failure_rate > 0 && unitInterval(request.reference) < settings.failure_rate) {
        return fail("processing_error", "An error occurred while processing the card (injected by failure_rate).")
      }
      switch (testCard.behaviour._tag) {
        case "Decline":
          return fail(testCard.behaviour.code, testCard.behaviour.message)
        case "ChallengeThenApprove":
          return { ...base, status: "requires_action" }
        default:
          return { ...approved, amountCaptured: request.capture ? request.amount : 0 }
      }
    })

  const chargeOf = (pspPaymentId: string) => Effect.map(ledger.findCharge(pspPaymentId), Option.getOrUndefined)

  return {
    authorize: (request) =>
      respond(Effect.gen(function*() {
        const { charge } = yield* ledger.recordCharge(yield* newCharge(request))
        return outcomeOfCharge(charge, baseUrl)
      })),

    syncPayment: ({ pspPaymentId, reference }) =>
      respond(Effect.gen(function*() {
        const charge = pspPaymentId !== null
          ? yield* ledger.findCharge(pspPaymentId)
          : yield* ledger.findChargeByReference(connection.id, reference)
        return Option.match(charge, {
          onNone: () => AuthorizationOutcome.Unknown(),
          onSome: (found) => outcomeOfCharge(found, baseUrl)
        })
      })),

    capture: ({ amount, pspPaymentId }) =>
      respond(Effect.gen(function*() {
        const charge = yield* chargeOf(pspPaymentId)
        if (charge?.status === "succeeded") return ModificationOutcome.Done()
        if (charge?.status !== "authorized") {
          return ModificationOutcome.Refused({ code: "charge_not_capturable", message: "The charge is not authorized." })
        }
        if (amount > charge.amount) {
          return ModificationOutcome.Refused({ code: "amount_too_large", message: "Capture exceeds the authorization." })
        }
        yield* ledger.updateCharge({ ...charge, status: "succeeded", amountCaptured: amount })
        return ModificationOutcome.Done()
      })),

    cancel: ({ pspPaymentId }) =>
      respond(Effect.gen(function*() {
        const charge = yield* chargeOf(pspPaymentId)
        if (charge === undefined || charge.status === "canceled") return ModificationOutcome.Done()
        if (charge.status !== "authorized" && charge.status !== "requires_action") {
          return ModificationOutcome.Refused({
            code: "charge_not_cancelable",
            message: `A ${charge.status} charge cannot be canceled.`
          })
        }
        yield* ledger.updateCharge({ ...charge, status: "canceled" })
        return ModificationOutcome.Done()
      })),

    refund: ({ amount, pspPaymentId, reference }) =>
      respond(Effect.gen(function*() {
        const charge = yield* chargeOf(pspPaymentId)
        const millis = yield* Clock.currentTimeMillis
        const refusal = charge === undefined || charge.status !== "succeeded"
          ? { code: "charge_not_refundable", message: "Only a captured charge can be refunded." }
          : cardForToken(charge.token)?.behaviour._tag === "ApproveRefusingRefunds"
          ? { code: "refund_declined", message: "The card issuer declined the refund." }
          : amount > charge.amountCaptured - charge.amountRefunded
          ? { code: "amount_too_large", message: "The refund exceeds what is left on the charge." }
          : undefined
        const { created, refund } = yield* ledger.recordRefund({
          id: makeId("re", millis),
          connectionId: connection.id,
          reference,
          chargeId: pspPaymentId,
          amount,
          status: refusal === undefined ? "succeeded" : "failed",
          failureCode: refusal?.code ?? null,
          failureMessage: refusal?.message ?? null,
          createdAtMillis: millis
        })
        if (created && refund.status === "succeeded" && charge !== undefined) {
          yield* ledger.updateCharge({ ...charge, amountRefunded: charge.amountRefunded + amount })
        }
        return refund.status === "succeeded"
          ? RefundOutcome.Succeeded({ pspRefundId: refund.id })
          : RefundOutcome.Failed({
            pspRefundId: refund.id,
            code: refund.failureCode ?? "refund_failed",
            message: refund.failureMessage ?? "The refund failed."
          })
      })),

    syncRefund: ({ reference }) =>
      respond(Effect.map(ledger.findRefundByReference(connection.id, reference), Option.match({
        onNone: () => RefundOutcome.Unknown(),
        onSome: (refund) =>
          refund.status === "succeeded"
            ? RefundOutcome.Succeeded({ pspRefundId: refund.id })
            : RefundOutcome.Failed({
              pspRefundId: refund.id,
              code: refund.failureCode ?? "refund_failed",
              message: refund.failureMessage ?? "The refund failed."
            })
      })))
  }
}
