import { Effect } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Transactions } from "../ports/Transactions.js"
import { Failure, type Payment } from "./Payment.js"
import type { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRefused, providerUnreachable, ReturnUrlRequired } from "./PaymentErrors.js"
import { canceledStep } from "./PaymentOutcomes.js"
import { PaymentRecords } from "./PaymentRecords.js"

export interface ConcludeOptions {
  /** A challenge without a return_url waits for the customer, who ends on the page saying they may close the window. */
  readonly closingPage?: boolean
}

/**
 * Whether `conclude` answers the payment as it is, whatever the request (the closing page or not):
 * then a write of it is the request's answer, which its Idempotency-Key's completion can ride with.
 */
export const answeredAsIs = (payment: Payment, options?: ConcludeOptions) => {
  const nowhereToReturn = payment.return_url === null && !payment.off_session && options?.closingPage !== true
  return !(payment.status === "requires_action" && nowhereToReturn) &&
    !(payment.status === "canceled" && payment.failure?.code === "return_url_required") &&
    !(payment.status === "failed" && payment.failure !== null)
}

/**
 * Canceling a payment (the PSP first, when it holds money), and the end of a send that cancels one:
 * a challenge the customer has no way back from.
 */
export const makePaymentCancellation = (calls: PaymentCalls) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    const transactions = yield* Transactions
    const { call, keepProviderMessage } = calls

    const cancelNow = (tenant: Tenant, payment: Payment, failure: Failure | null) =>
      Effect.gen(function*() {
        if (payment.status !== "created") {
          const attempt = payment.attempts.at(-1)!
          const { result } = yield* call(
            tenant,
            attempt.provider,
            (connector) => connector.cancel({ reference: `${attempt.id}_cancel`, pspPaymentId: payment.provider_payment_id ?? attempt.id })
          )
          if (result._tag !== "Answered") {
            return yield* providerUnreachable(payment, result._tag === "NoAnswer")
          }
          if (result.value._tag === "Refused") {
            yield* keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
            return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
          }
          // Accepted, settled later: the payment says so when the PSP does.
          if (result.value._tag === "Pending") return payment
        }
        // Under an Idempotency-Key, the key learns of the move in its transaction (see Payments.cancel).
        const scope = yield* IdempotencyScope
        return yield* transactions.run(
          Effect.tap(
            records.moveIfStill(tenant, payment.id, payment.status, "canceled", (current) => canceledStep(current, failure).changes),
            () => scope.attach(payment.id)
          )
        )
      })

    const conclude = (tenant: Tenant, payment: Payment, options?: ConcludeOptions) =>
      Effect.gen(function*() {
        if (answeredAsIs(payment, options)) return payment
        const nowhereToReturn = payment.return_url === null && !payment.off_session && options?.closingPage !== true
        if (payment.status === "requires_action" && nowhereToReturn) {
          const canceled = yield* cancelNow(
            tenant,
            payment,
            new Failure({
              code: "return_url_required",
              message: "The provider requires customer authentication (3D Secure), which needs a return_url."
            })
          ).pipe(Effect.catchAll(() => Effect.succeed(payment)))
          return yield* new ReturnUrlRequired({ payment: canceled })
        }
        if (payment.status === "canceled" && payment.failure?.code === "return_url_required") {
          return yield* new ReturnUrlRequired({ payment })
        }
        // A failure is final and saved, an outage included: the money did not move, and a new payment
        // (new key) is how to try again. 502/504 are kept for calls that change nothing here.
        if (payment.status === "failed" && payment.failure !== null) {
          return yield* new PaymentRefused({ payment, code: payment.failure.code, message: payment.failure.message })
        }
        return payment
      })

    return { cancelNow, conclude }
  })
