import { Option } from "effect"
import { AuthorizationOutcome, type CardDetails } from "../providers/ConnectorOutcomes.js"
import { failureMessage } from "../providers/FailureMessages.js"
import { awaitsOutcome, Failure, NextAction, type Payment, PaymentAttempt, PaymentMethod, type PaymentStatus } from "./Payment.js"
import type { RetryDecision } from "./PaymentPolicy.js"

/**
 * What the PSP's answers make of a payment, as pure functions: no I/O, no clock. The services apply
 * the result to the locked payment through its lifecycle. (Parts are built unvalidated: the payment
 * they end up in is validated in full when it is written.)
 */

/** One move of the payment, with the fields that change with it. */
export interface Step {
  readonly to: PaymentStatus
  readonly changes: Partial<Payment>
}

/** What an answer does: moves the payment, records something without a move, or nothing at all. */
export type Settlement =
  | { readonly _tag: "Move"; readonly steps: ReadonlyArray<Step> }
  | { readonly _tag: "Record"; readonly changes: Partial<Payment> }
  | { readonly _tag: "Nothing" }

const nothing: Settlement = { _tag: "Nothing" }

export const replaceAttempt = (payment: Payment, id: string, changes: Partial<PaymentAttempt>) =>
  payment.attempts.map((attempt) => attempt.id === id ? new PaymentAttempt({ ...attempt, ...changes }, true) : attempt)

/** The card as the PSP described it, where it said anything. */
export const withCard = (method: PaymentMethod, card: CardDetails) =>
  new PaymentMethod({
    ...method,
    brand: card.brand ?? method.brand,
    last4: card.last4 ?? method.last4,
    country: card.country ?? method.country
  }, true)

/**
 * The PSP's answer to attempt `attemptId`, if the payment is still waiting for it: only the first
 * of the request, the 3DS return, a webhook and the worker to learn the outcome moves the payment.
 * A payment back from 3DS passes through `processing` again on its way to the end.
 */
export const settlementOf = (
  payment: Payment,
  attemptId: string,
  outcome: AuthorizationOutcome,
  latencyMs: number | null
): Settlement => {
  const attempt = payment.attempts.find((candidate) => candidate.id === attemptId)
  if (attempt === undefined) return nothing
  const sent = payment.status === "processing" && awaitsOutcome(attempt)
  const challenged = payment.status === "requires_action" && attempt.status === "requires_action"
  if (!sent && !challenged) return nothing
  const latency_ms = latencyMs ?? attempt.latency_ms
  const end = (step: Step): Settlement => ({
    _tag: "Move",
    steps: challenged ? [{ to: "processing", changes: { next_action: null } }, step] : [step]
  })
  switch (outcome._tag) {
    case "Authorized":
      // A capture larger than the payment, or not a whole amount, is not news we can believe.
      if (outcome.captured && !plausibleCapture(payment, outcome.amountCaptured)) return nothing
      return end({
        to: outcome.captured ? "succeeded" : "requires_capture",
        changes: {
          provider_payment_id: outcome.pspPaymentId,
          amount_captured: outcome.captured ? outcome.amountCaptured : 0,
          payment_method: withCard(payment.payment_method, outcome.card),
          attempts: replaceAttempt(payment, attemptId, {
            status: outcome.captured ? "succeeded" : "requires_capture",
            provider_payment_id: outcome.pspPaymentId,
            error_code: null,
            latency_ms
          })
        }
      })
    case "Refused":
      return end({
        to: "failed",
        changes: {
          provider_payment_id: outcome.pspPaymentId ?? payment.provider_payment_id,
          failure: new Failure({ code: outcome.code, message: outcome.message }),
          payment_method: withCard(payment.payment_method, outcome.card),
          attempts: replaceAttempt(payment, attemptId, {
            status: "failed",
            provider_payment_id: outcome.pspPaymentId,
            error_code: outcome.code,
            latency_ms
          })
        }
      })
    case "ActionRequired":
      // Still waiting on the customer: nothing new for a payment already waiting.
      return challenged ? nothing : end({
        to: "requires_action",
        changes: {
          provider_payment_id: outcome.pspPaymentId,
          next_action: new NextAction({ type: "redirect", url: outcome.redirectUrl }),
          payment_method: withCard(payment.payment_method, outcome.card),
          attempts: replaceAttempt(payment, attemptId, {
            status: "requires_action",
            provider_payment_id: outcome.pspPaymentId,
            error_code: null,
            latency_ms
          })
        }
      })
    case "Pending": {
      // The PSP has it and will tell later: the attempt stays open, now with the PSP's id, so it is
      // asked about rather than sent again. A payment whose customer finished the action (a PayPal
      // capture PENDING after the approval) waits on its PSP now: `processing`, nothing left for the
      // customer to open; the PSP's webhook or the worker's reconciliation settles it.
      const changes = {
        provider_payment_id: outcome.pspPaymentId,
        payment_method: withCard(payment.payment_method, outcome.card),
        attempts: replaceAttempt(payment, attemptId, {
          status: "pending",
          provider_payment_id: outcome.pspPaymentId,
          error_code: null,
          latency_ms
        })
      }
      return challenged
        ? { _tag: "Move", steps: [{ to: "processing", changes: { ...changes, next_action: null } }] }
        : { _tag: "Record", changes }
    }
    case "Unknown":
      return nothing
  }
}

/**
 * A send of attempt `attemptId` that got no answer (`timeout`: not within the deadline;
 * `outcome_unknown`: the connection broke after sending): the attempt ends `unknown`, the payment
 * stays `processing` for reconciliation. Only an attempt still `pending` and never acknowledged by
 * the PSP is marked: one the PSP took ("tell you later") stays as the PSP left it.
 */
export const unansweredOf = (payment: Payment, attemptId: string, code: string, latencyMs: number): Settlement => {
  const attempt = payment.attempts.find((candidate) => candidate.id === attemptId)
  if (
    payment.status !== "processing" || attempt === undefined || attempt.status !== "pending" ||
    attempt.provider_payment_id !== null
  ) return nothing
  return {
    _tag: "Record",
    changes: { attempts: replaceAttempt(payment, attemptId, { status: "unknown", error_code: code, latency_ms: latencyMs }) }
  }
}

/** What a PSP may truthfully say it captured of this payment: a whole amount, at most the payment's. */
export const plausibleCapture = (payment: Payment, amount: number) => Number.isSafeInteger(amount) && amount > 0 && amount <= payment.amount

/**
 * What the PSP reports about the authorization waiting for capture: captured since (a capture whose
 * answer was lost, or that settled later) or released. Only news of that very attempt counts: a late
 * report about an earlier attempt (refused before the payment failed over) must not touch the live
 * authorization. Anything else leaves it waiting.
 */
export const captureReportOf = (
  payment: Payment,
  attemptId: string,
  outcome: AuthorizationOutcome
): Option.Option<Step> => {
  const attempt = payment.attempts.at(-1)
  if (
    payment.status !== "requires_capture" || attempt === undefined || attempt.id !== attemptId ||
    attempt.status !== "requires_capture"
  ) return Option.none()
  if (outcome._tag === "Authorized" && outcome.captured) {
    if (!plausibleCapture(payment, outcome.amountCaptured)) return Option.none()
    return Option.some({
      to: "succeeded",
      changes: {
        amount_captured: outcome.amountCaptured,
        attempts: replaceAttempt(payment, attempt.id, { status: "succeeded" })
      }
    })
  }
  if (outcome._tag === "Refused") {
    return Option.some({
      to: "canceled",
      changes: {
        failure: new Failure({ code: outcome.code, message: outcome.message }),
        attempts: replaceAttempt(payment, attempt.id, { status: "canceled" })
      }
    })
  }
  return Option.none()
}

/** A capture the PSP confirmed, for `captured` of the authorized amount. */
export const capturedStep = (payment: Payment, captured: number): Step => ({
  to: "succeeded",
  changes: {
    amount_captured: captured,
    attempts: replaceAttempt(payment, payment.attempts.at(-1)!.id, { status: "succeeded" })
  }
})

/** The end of a payment that is canceled (by the merchant, by expiry, or for want of a return_url). */
export const canceledStep = (payment: Payment, failure: Failure | null): Step => {
  const last = payment.attempts.at(-1)
  return {
    to: "canceled",
    changes: {
      next_action: null,
      failure,
      attempts: last === undefined ? payment.attempts : replaceAttempt(payment, last.id, { status: "canceled" })
    }
  }
}

/**
 * Which connection the next attempt goes to after a failure, if any, by the retry decision of its
 * code: the same connection while it has tries left, then (when the decision cascades) the first of
 * `fallbacks` the payment has not tried yet; a decision that cascades first skips the retries when
 * there is a fallback. A code no decision lists is final.
 */
export const nextProvider = (
  payment: Payment,
  outcome: AuthorizationOutcome,
  decisions: ReadonlyArray<RetryDecision>,
  fallbacks: ReadonlyArray<string>
): Option.Option<string> => {
  if (outcome._tag !== "Refused") return Option.none()
  const decision = decisions.find((candidate) => candidate.codes.includes(outcome.code))
  if (decision === undefined) return Option.none()
  const triesOn = (provider: string) => payment.attempts.filter((attempt) => attempt.provider === provider).length
  const fallback = decision.cascade ? Option.fromNullable(fallbacks.find((provider) => triesOn(provider) === 0)) : Option.none()
  if (decision.cascadeFirst && Option.isSome(fallback)) return fallback
  if (triesOn(payment.provider) <= decision.retriesOnSameConnection) return Option.some(payment.provider)
  return fallback
}

/**
 * A vaulted card the vault could not open: final for the payment (no retry, no failover: every
 * connection would meet the same card). What went wrong stays in the operator's log, by ids.
 */
export const cardUnusable = (): AuthorizationOutcome =>
  AuthorizationOutcome.Refused({
    pspPaymentId: null,
    code: "payment_method_unusable",
    message: failureMessage("payment_method_unusable"),
    retryable: false,
    card: { brand: null, last4: null, country: null }
  })

/**
 * A provider that could not be reached, as the refusal a payment records when nothing else is left.
 * The reason (ours, e.g. `ECONNREFUSED`) stays on the attempt record: shown to the caller, it would
 * tell what answers behind a base_url.
 */
export const unavailable = (reason: string): AuthorizationOutcome =>
  AuthorizationOutcome.Refused({
    pspPaymentId: null,
    code: "provider_unavailable",
    message: failureMessage("provider_unavailable"),
    providerMessage: reason,
    retryable: true,
    card: { brand: null, last4: null, country: null }
  })
