import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { PaymentAttempts } from "./PaymentAttempts.js"
import { PaymentNotFound } from "./PaymentErrors.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { makeReturnSyncThrottle } from "./ReturnSyncThrottle.js"
import { claimSignedFor, unexpiredClaim } from "./ReturnToken.js"

/**
 * The customer's return from the PSP's 3D Secure page: found by the return URL's token alone, and
 * the PSP asked how it ended (at most once per payment in `RETURN_SYNC_INTERVAL`).
 */
export const makePaymentReturn = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const attempts = yield* PaymentAttempts
  const repository = yield* PaymentsRepository
  const { returnSigning } = yield* KeyMaterial
  const returnSyncs = yield* makeReturnSyncThrottle

  /** The tenant of the payment, when the token is ours for it and unexpired; read nothing for a token that cannot be. */
  const tenantByToken = (id: string, token: string | undefined) =>
    Effect.gen(function*() {
      const claim = yield* unexpiredClaim(token)
      if (claim === null) return Option.none<Tenant>()
      const tenant = yield* repository.tenantOf(id)
      if (Option.isNone(tenant)) return tenant
      return (yield* claimSignedFor(returnSigning, claim, id, tenant.value)) ? tenant : Option.none<Tenant>()
    })

  const returnFromAction = Effect.fn("Payments.returnFromAction")(function*(
    id: string,
    token: string | undefined,
    details: Readonly<Record<string, string>> = {}
  ) {
    const tenant = yield* tenantByToken(id, token).pipe(
      Effect.flatMap(Option.match({ onNone: () => new PaymentNotFound({ id }), onSome: Effect.succeed }))
    )
    const synced = yield* returnSyncs.run(id, syncOnReturn(tenant, id, details))
    return Option.isSome(synced) ? synced.value : yield* records.load(tenant, id)
  })

  /** What the PSP says about the payment the customer came back for, recorded if it moved on. */
  const syncOnReturn = (tenant: Tenant, id: string, details: Readonly<Record<string, string>>) =>
    Effect.gen(function*() {
      const payment = yield* records.load(tenant, id)
      const attempt = payment.attempts.at(-1)
      if (payment.status !== "requires_action" || attempt === undefined || Object.keys(details).length === 0) {
        return yield* attempts.refresh(tenant, payment)
      }
      // A PSP that finishes the action with the customer's return parameters (Adyen) gets them; any
      // other is asked how it ended, as without them.
      const { result } = yield* attempts.call(tenant, attempt.provider, (connector) =>
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
      return yield* attempts.applyReport(tenant, payment, attempt.id, result.value)
    })

  return { returnFromAction }
})
