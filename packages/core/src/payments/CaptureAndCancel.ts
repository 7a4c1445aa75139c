import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { Transactions } from "../ports/Transactions.js"
import type { CancelPayment, CapturePayment, Payment, PaymentStatus } from "./Payment.js"
import { PaymentAttempts } from "./PaymentAttempts.js"
import { AmountTooLarge, PaymentRefused, PaymentStateConflict, providerUnreachable } from "./PaymentErrors.js"
import { capturedStep } from "./PaymentOutcomes.js"
import { PaymentRecords } from "./PaymentRecords.js"

const cancelable: ReadonlyArray<PaymentStatus> = ["created", "requires_action", "requires_capture"]

/** The merchant's end of an authorization: capture it (all or part), or cancel the payment. */
export const makeCaptureAndCancel = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const attempts = yield* PaymentAttempts
  const transactions = yield* Transactions

  /**
   * A capture or cancel attaches the payment to its Idempotency-Key in the transaction that moves it:
   * a retry after a crash between that commit and the stored answer gets the payment, as the first
   * request would have, not a 409 for a move its own key already made.
   */
  const movedUnderThisKey = (tenant: Tenant, id: string) =>
    Effect.flatMap(IdempotencyScope, (scope) =>
      Option.isSome(scope.recovered) && scope.recovered.value === id
        ? Effect.map(records.load(tenant, id), Option.some)
        : Effect.succeed(Option.none<Payment>()))

  const capture = Effect.fn("Payments.capture")(function*(tenant: Tenant, id: string, input: CapturePayment) {
    const recovered = yield* movedUnderThisKey(tenant, id)
    if (Option.isSome(recovered)) return recovered.value
    const payment = yield* records.load(tenant, id)
    if (payment.status !== "requires_capture") return yield* new PaymentStateConflict({ payment, action: "capture" })
    const amount = input.amount ?? payment.amount
    if (amount > payment.amount) return yield* new AmountTooLarge({ param: "amount", maximum: payment.amount })
    const attempt = payment.attempts.at(-1)!
    const { result } = yield* attempts.call(tenant, attempt.provider, (connector) =>
      connector.capture({
        reference: `${attempt.id}_capture`,
        pspPaymentId: payment.provider_payment_id ?? attempt.id,
        amount,
        currency: payment.currency
      }))
    if (result._tag !== "Answered") {
      return yield* providerUnreachable(payment, result._tag === "NoAnswer")
    }
    switch (result.value._tag) {
      case "Refused":
        yield* attempts.keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
        return yield* new PaymentRefused({ payment, code: result.value.code, message: result.value.message })
      case "Pending":
        // Accepted, confirmed later by the PSP: the payment waits for the news in `requires_capture`.
        return payment
      case "Captured": {
        // Record what the PSP captured, not what this request asked: a retry under the same reference
        // may have asked for another amount, and the PSP answers with the first capture.
        const captured = result.value.amount
        if (captured < 1 || captured > payment.amount) {
          return yield* Effect.dieMessage(`provider reported capturing ${captured} of a ${payment.amount} payment`)
        }
        const scope = yield* IdempotencyScope
        return yield* transactions.run(
          Effect.tap(
            records.moveIfStill(tenant, id, "requires_capture", "succeeded", (current) => capturedStep(current, captured).changes),
            () => scope.attach(id)
          )
        )
      }
    }
  })

  const cancel = Effect.fn("Payments.cancel")(function*(tenant: Tenant, id: string, _input: CancelPayment) {
    const recovered = yield* movedUnderThisKey(tenant, id)
    if (Option.isSome(recovered)) return recovered.value
    const payment = yield* records.load(tenant, id)
    if (!cancelable.includes(payment.status)) return yield* new PaymentStateConflict({ payment, action: "cancel" })
    return yield* attempts.cancelNow(tenant, payment, null)
  })

  return { capture, cancel }
})
