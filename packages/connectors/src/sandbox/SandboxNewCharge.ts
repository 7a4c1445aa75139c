import { type AuthorizeRequest, makeId } from "@orchestrator/core"
import { Clock, Effect } from "effect"
import type { SandboxCharge } from "./SandboxLedger.js"
import type { SandboxSettings } from "./SandboxSettings.js"
import { cardForToken } from "./SandboxTokens.js"

/** FNV-1a: the same reference always lands on the same side of `failure_rate`, retries included. */
const unitInterval = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) / 0x1_0000_0000
}

/** The charge the sandbox makes for `request`: its test token, then `failure_rate`, decide the outcome. */
export const newSandboxCharge = (
  connectionId: string,
  settings: SandboxSettings,
  request: AuthorizeRequest
): Effect.Effect<SandboxCharge> =>
  Effect.map(Clock.currentTimeMillis, (millis) => {
    // Routing sends the sandbox cards only; a method without a token is a token it does not know.
    const token = request.paymentMethod.token ?? ""
    const testCard = cardForToken(token)
    const base = {
      id: makeId("ch", millis),
      connectionId,
      reference: request.reference,
      merchantReference: request.paymentId,
      amount: request.amount,
      currency: request.currency,
      token,
      capture: request.capture,
      amountCaptured: 0,
      amountRefunded: 0,
      captureReference: null,
      failureCode: null,
      failureMessage: null,
      returnUrl: request.returnUrl,
      createdAtMillis: millis
    }
    const fail = (code: string, message: string): SandboxCharge => ({
      ...base,
      status: "failed",
      failureCode: code,
      failureMessage: message
    })
    if (testCard === undefined) {
      return fail("invalid_payment_method", `The sandbox does not know the token '${token}'.`)
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
        return request.capture
          ? { ...base, status: "succeeded", amountCaptured: request.amount }
          : { ...base, status: "authorized" }
    }
  })
