import { Effect, Option } from "effect"
import { PaymentNotFound } from "../../domain/payments/PaymentErrors.js"
import { claimSignedFor, unexpiredClaim } from "../../domain/payments/ReturnToken.js"
import type { Tenant } from "../../domain/Tenant.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { applyReport, refresh } from "./PaymentSettlement.js"
import { makeReturnSyncThrottle } from "./ReturnSyncThrottle.js"

/** The tenant of the payment, when the token is ours for it and unexpired; nothing is read for a token that cannot be. */
const tenantByToken = (id: string, token: string | undefined) =>
  Effect.gen(function*() {
    const claim = yield* unexpiredClaim(token)
    if (claim === null) return Option.none<Tenant>()
    const tenant = yield* (yield* PaymentsRepository).tenantOf(id)
    if (Option.isNone(tenant)) return tenant
    const { returnSigning } = yield* KeyMaterial
    return (yield* claimSignedFor(returnSigning, claim, id, tenant.value)) ? tenant : Option.none<Tenant>()
  })

/** What the PSP says about the payment the customer came back for, recorded if it moved on. */
const syncOnReturn = (tenant: Tenant, id: string, details: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const payment = yield* (yield* PaymentRecords).load(tenant, id)
    const attempt = payment.attempts.at(-1)
    if (payment.status !== "requires_action" || attempt === undefined || Object.keys(details).length === 0) {
      return yield* refresh(tenant, payment)
    }
    // A PSP that finishes the action with the customer's return parameters (Adyen) gets them; any
    // other is asked how it ended, as without them.
    const { result } = yield* (yield* PaymentCalls).call(tenant, attempt.provider, (connector) =>
      connector.completeAction === undefined
        ? connector.syncPayment({ reference: attempt.id, pspPaymentId: payment.provider_payment_id })
        : connector.completeAction({
          reference: attempt.id,
          pspPaymentId: payment.provider_payment_id ?? attempt.id,
          amount: payment.amount,
          currency: payment.currency,
          capture: payment.capture,
          details
        }))
    if (result._tag !== "Answered") return payment
    return yield* applyReport(tenant, payment, attempt.id, result.value)
  })

/**
 * GET /v1/payments/{id}/return, the customer back from the PSP's 3D Secure page: found by the return
 * URL's token alone, and the PSP asked how it ended (at most once per payment in `RETURN_SYNC_INTERVAL`,
 * in this process: the throttle is the service's).
 */
export const makePaymentReturn = Effect.map(makeReturnSyncThrottle, (returnSyncs) => ({
  returnFromAction: Effect.fn("Payments.returnFromAction")(function*(
    id: string,
    token: string | undefined,
    details: Readonly<Record<string, string>> = {}
  ) {
    const tenant = yield* tenantByToken(id, token).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )
    const synced = yield* returnSyncs.run(id, syncOnReturn(tenant, id, details))
    return Option.isSome(synced) ? synced.value : yield* (yield* PaymentRecords).load(tenant, id)
  })
}))
