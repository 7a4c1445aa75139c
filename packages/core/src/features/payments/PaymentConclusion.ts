import { Effect } from "effect"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import { Failure, type Payment } from "../../domain/payments/Payment.js"
import { PaymentRefused, providerUnreachable, ReturnUrlRequired } from "../../domain/payments/PaymentErrors.js"
import { canceledStep } from "../../domain/payments/PaymentOutcomes.js"
import type { Tenant } from "../../domain/Tenant.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRecords } from "./PaymentRecords.js"

export interface ConcludeOptions {
  /** A challenge without a return_url waits for the customer, who ends on the page saying they may close the window. */
  readonly closingPage?: boolean
}

const nowhereToReturn = (payment: Payment, options: ConcludeOptions) => payment.return_url === null && !payment.off_session && options.closingPage !== true

/**
 * Whether `conclude` answers the payment as it is: then the write of it is the request's answer,
 * which its Idempotency-Key's completion can ride with.
 */
export const isAnswerAsItIs = (payment: Payment, options: ConcludeOptions = {}) =>
  !(payment.status === "requires_action" && nowhereToReturn(payment, options)) &&
  !(payment.status === "canceled" && payment.failure?.code === "return_url_required") &&
  !(payment.status === "failed" && payment.failure !== null)

/**
 * Cancels a payment, the PSP first when it holds money (the caller checked the status allows it);
 * under an Idempotency-Key, the key learns of the move in its transaction.
 */
export const cancelNow = (tenant: Tenant, payment: Payment, failure: Failure | null, run: Running = noKey) =>
  Effect.gen(function*() {
    if (payment.status !== "created") {
      const calls = yield* PaymentCalls
      const attempt = payment.attempts.at(-1)!
      const { result } = yield* calls.call(
        tenant,
        attempt.provider,
        (connector) => connector.cancel({ reference: `${attempt.id}_cancel`, pspPaymentId: payment.provider_payment_id ?? attempt.id })
      )
      if (result._tag !== "Answered") return yield* providerUnreachable(payment, result._tag === "NoAnswer")
      if (result.value._tag === "Refused") {
        yield* calls.keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
        return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
      }
      // Accepted, settled later: the payment says so when the PSP does.
      if (result.value._tag === "Pending") return payment
    }
    const records = yield* PaymentRecords
    const keys = yield* IdempotentRequests
    return yield* (yield* Transactions).run(
      Effect.tap(
        records.moveIfStill(tenant, payment.id, payment.status, "canceled", (current) => canceledStep(current, failure).changes),
        () => keys.attach(run, payment.id)
      )
    )
  })

/**
 * The rules for a payment at the end of a send: a challenge with no way back for the customer (no
 * return_url, customer present) is canceled, unless the caller lets it end on our own page
 * (`closingPage`), and a failure is answered as such.
 */
export const conclude = (tenant: Tenant, payment: Payment, options: ConcludeOptions = {}) =>
  Effect.gen(function*() {
    if (isAnswerAsItIs(payment, options)) return payment
    if (payment.status === "requires_action" && nowhereToReturn(payment, options)) {
      const canceled = yield* cancelNow(
        tenant,
        payment,
        new Failure({ code: "return_url_required", message: "The provider requires customer authentication (3D Secure), which needs a return_url." })
      ).pipe(Effect.catchAll(() => Effect.succeed(payment)))
      return yield* new ReturnUrlRequired({ payment: canceled })
    }
    if (payment.status === "canceled" && payment.failure?.code === "return_url_required") return yield* new ReturnUrlRequired({ payment })
    // A failure is final and saved, an outage included: the money did not move, and a new payment
    // (new key) is how to try again. 502/504 are kept for calls that change nothing here.
    return yield* new PaymentRefused({ payment, code: payment.failure!.code, message: payment.failure!.message })
  })
