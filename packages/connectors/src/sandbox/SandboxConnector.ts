import {
  AuthorizationOutcome,
  type AuthorizeRequest,
  CaptureOutcome,
  type ConnectorContext,
  type ConnectorDefinition,
  ConnectorUnavailable,
  makeId,
  ModificationOutcome,
  type PaymentConnector,
  RefundOutcome
} from "@orchestrator/core"
import { Clock, Duration, Effect, Option, Redacted } from "effect"
import { disputeIfAsked, sandboxDisputes } from "./SandboxDisputes.js"
import { type SandboxCharge, SandboxLedger } from "./SandboxLedger.js"
import { newSandboxCharge } from "./SandboxNewCharge.js"
import { outcomeOfCharge, refundOutcome } from "./SandboxOutcomes.js"
import { SandboxSettings } from "./SandboxSettings.js"
import { sandboxNativeSubscriptions } from "./SandboxSubscriptions.js"
import { cardForNumber, cardForToken } from "./SandboxTokens.js"
import { readSandboxWebhook } from "./SandboxWebhooks.js"

const notFound = { code: "charge_not_found", message: "No such charge on this connection." }

/** Captures `amount` of an authorized charge; the same capture sent again answers as the first did. */
const captureCharge = (ledger: SandboxLedger["Type"], charge: SandboxCharge, amount: number, reference: string) =>
  Effect.gen(function*() {
    if (!Number.isSafeInteger(amount) || amount < 1) {
      return CaptureOutcome.Refused({ code: "amount_invalid", message: "A capture is at least 1 minor unit." })
    }
    if (amount > charge.amount) {
      return CaptureOutcome.Refused({ code: "amount_too_large", message: "Capture exceeds the authorization." })
    }
    const moved = yield* ledger.transitionCharge(charge.id, ["authorized"], {
      status: "succeeded",
      amountCaptured: amount,
      captureReference: reference
    })
    if (Option.isSome(moved)) {
      yield* disputeIfAsked(ledger, moved.value)
      return CaptureOutcome.Captured({ amount })
    }
    const current = Option.getOrThrow(yield* ledger.findCharge(charge.id))
    if (current.status === "succeeded" && current.captureReference === reference) {
      return CaptureOutcome.Captured({ amount: current.amountCaptured })
    }
    return current.status === "succeeded"
      ? CaptureOutcome.Refused({ code: "charge_already_captured", message: "The charge was already captured." })
      : CaptureOutcome.Refused({ code: "charge_not_capturable", message: `A ${current.status} charge cannot be captured.` })
  })

/** Refunds a captured charge of this connection (`undefined`: not one), at once or later as the settings say. */
const refundCharge = (
  ledger: SandboxLedger["Type"],
  connectionId: string,
  settings: SandboxSettings,
  charge: SandboxCharge | undefined,
  { amount, pspPaymentId, reference }: { readonly amount: number; readonly pspPaymentId: string; readonly reference: string }
) =>
  Effect.gen(function*() {
    const millis = yield* Clock.currentTimeMillis
    const refusal = charge === undefined
      ? notFound
      : !Number.isSafeInteger(amount) || amount < 1
      ? { code: "amount_invalid", message: "A refund is at least 1 minor unit." }
      : charge.status !== "succeeded"
      ? { code: "charge_not_refundable", message: "Only a captured charge can be refunded." }
      : cardForToken(charge.token)?.behaviour._tag === "ApproveRefusingRefunds"
      ? { code: "refund_declined", message: "The card issuer declined the refund." }
      : undefined
    // The ledger takes the amount off the charge in the same step, or stores the refund failed.
    const later = refusal === undefined && settings.async_refunds
    const { refund } = yield* ledger.recordRefund({
      id: makeId("re", millis),
      connectionId,
      reference,
      chargeId: pspPaymentId,
      amount,
      status: refusal !== undefined ? "failed" : later ? "pending" : "succeeded",
      failureCode: refusal?.code ?? null,
      failureMessage: refusal?.message ?? null,
      createdAtMillis: millis,
      settleAtMillis: later ? millis + settings.refund_delay_ms : null
    })
    return refundOutcome(refund)
  })

/**
 * The built-in simulated PSP. Test tokens decide outcomes; each connection's settings inject
 * latency, outages and random processing errors. It keeps its own ledger and honours its
 * idempotency reference like a real PSP: the same reference never charges twice.
 */
export const makeSandboxConnector = (
  ledger: SandboxLedger["Type"],
  context: ConnectorContext,
  settings: SandboxSettings
): PaymentConnector => {
  const { connection, publicBaseUrl: baseUrl } = context

  /** Outages refuse before anything happens; latency is paid after the work is done. */
  const respond = <A>(work: Effect.Effect<A, ConnectorUnavailable>): Effect.Effect<A, ConnectorUnavailable> =>
    settings.outage
      ? Effect.fail(new ConnectorUnavailable({ reason: `sandbox connection '${connection.name}' has an outage` }))
      : Effect.tap(work, () => settings.latency_ms > 0 ? Effect.sleep(Duration.millis(settings.latency_ms)) : Effect.void)

  /** A charge of this connection only: another connection's charge is as unknown as a missing one. */
  const chargeOf = (pspPaymentId: string) =>
    Effect.map(
      ledger.findCharge(pspPaymentId),
      (found) => Option.getOrUndefined(Option.filter(found, (charge) => charge.connectionId === connection.id))
    )

  return {
    authorize: (request) =>
      respond(Effect.gen(function*() {
        const { charge, created } = yield* ledger.recordCharge(yield* newSandboxCharge(connection.id, settings, yield* withSandboxToken(request)))
        if (created) yield* disputeIfAsked(ledger, charge)
        return outcomeOfCharge(charge, baseUrl)
      })),

    syncPayment: ({ pspPaymentId, reference }) =>
      respond(Effect.gen(function*() {
        const charge = pspPaymentId !== null
          ? Option.fromNullable(yield* chargeOf(pspPaymentId))
          : yield* ledger.findChargeByReference(connection.id, reference)
        return Option.match(charge, {
          onNone: () => AuthorizationOutcome.Unknown(),
          onSome: (found) => outcomeOfCharge(found, baseUrl)
        })
      })),

    capture: ({ amount, pspPaymentId, reference }) =>
      respond(Effect.gen(function*() {
        const charge = yield* chargeOf(pspPaymentId)
        if (charge === undefined) return CaptureOutcome.Refused(notFound)
        return yield* captureCharge(ledger, charge, amount, reference)
      })),

    cancel: ({ pspPaymentId }) =>
      respond(Effect.gen(function*() {
        const charge = yield* chargeOf(pspPaymentId)
        if (charge === undefined) return ModificationOutcome.Refused(notFound)
        const moved = yield* ledger.transitionCharge(charge.id, ["authorized", "requires_action", "canceled"], {
          status: "canceled"
        })
        if (Option.isSome(moved)) return ModificationOutcome.Done()
        const current = Option.getOrThrow(yield* ledger.findCharge(charge.id))
        return ModificationOutcome.Refused({
          code: "charge_not_cancelable",
          message: `A ${current.status} charge cannot be canceled.`
        })
      })),

    refund: ({ amount, pspPaymentId, reference }) =>
      respond(Effect.gen(function*() {
        return yield* refundCharge(ledger, connection.id, settings, yield* chargeOf(pspPaymentId), { amount, pspPaymentId, reference })
      })),

    syncRefund: ({ reference }) =>
      respond(Effect.map(
        ledger.findRefundByReference(connection.id, reference),
        Option.match({
          onNone: () => RefundOutcome.Unknown(),
          onSome: refundOutcome
        })
      )),

    verifyWebhook: (webhook) => readSandboxWebhook(webhook, context.webhookSecret, baseUrl),

    subscriptions: sandboxNativeSubscriptions(ledger, connection.id, respond),

    disputes: sandboxDisputes(ledger, connection.id, respond)
  }
}

/**
 * A vaulted card, as the sandbox's books keep cards: the test token of its number (an unknown number
 * is approved, as `tok_visa`), so no card number ever reaches them.
 */
const withSandboxToken = (request: AuthorizeRequest) =>
  request.vaultCard === undefined
    ? Effect.succeed(request)
    : Effect.map(request.vaultCard.reveal, (card) => ({
      ...request,
      paymentMethod: { type: "card", token: cardForNumber(Redacted.value(card.number))?.token ?? "tok_visa" }
    }))

/**
 * The sandbox connection type: fault-injection settings, and an optional `api_key` credential that
 * it keeps sealed like any PSP's and never needs, so credential handling can be rehearsed on it.
 */
export const sandboxDefinition = (ledger: SandboxLedger["Type"]): ConnectorDefinition<SandboxSettings> => ({
  settings: SandboxSettings,
  credentialKeys: [{ key: "api_key", required: false }],
  testModeOnly: true,
  cardOfToken: (token) => cardForToken(token)?.card,
  rawCards: true,
  ownCheckoutForm: true,
  make: (context, settings) => makeSandboxConnector(ledger, context, settings)
})
