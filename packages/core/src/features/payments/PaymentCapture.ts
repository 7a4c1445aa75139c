import { Effect, Option } from "effect"
import { noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import type { CancelPayment, CapturePayment, Payment, PaymentStatus } from "../../domain/payments/Payment.js"
import { AmountTooLarge, PaymentRefused, PaymentStateConflict, providerUnreachable } from "../../domain/payments/PaymentErrors.js"
import { capturedStep } from "../../domain/payments/PaymentOutcomes.js"
import type { Tenant } from "../../domain/Tenant.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { cancelNow } from "./PaymentConclusion.js"
import { PaymentRecords } from "./PaymentRecords.js"

const cancelable: ReadonlyArray<PaymentStatus> = ["created", "requires_action", "requires_capture"]

/**
 * A capture or cancel attaches the payment to its Idempotency-Key in the transaction that moves it:
 * a retry after a crash between that commit and the kept answer gets the payment, as the first
 * request would have, not a 409 for a move its own key already made.
 */
const movedUnderThisKey = (tenant: Tenant, id: string, run: Running) =>
  run.recovered === id
    ? Effect.map(Effect.flatMap(PaymentRecords, (records) => records.load(tenant, id)), Option.some)
    : Effect.succeed(Option.none<Payment>())

/**
 * POST /v1/payments/{id}/capture: load (or what this key's earlier run moved) → decide (the status,
 * the amount) → call the PSP → record what it captured, the key attached in the same transaction.
 */
export const capturePayment = (tenant: Tenant, id: string, input: CapturePayment, run: Running = noKey) =>
  Effect.gen(function*() {
    const recovered = yield* movedUnderThisKey(tenant, id, run)
    if (Option.isSome(recovered)) return recovered.value
    const records = yield* PaymentRecords
    const payment = yield* records.load(tenant, id)
    if (payment.status !== "requires_capture") return yield* new PaymentStateConflict({ payment, action: "capture" })
    const amount = input.amount ?? payment.amount
    if (amount > payment.amount) return yield* new AmountTooLarge({ param: "amount", maximum: payment.amount })
    const calls = yield* PaymentCalls
    const attempt = payment.attempts.at(-1)!
    const { result } = yield* calls.call(tenant, attempt.provider, (connector) =>
      connector.capture({
        reference: `${attempt.id}_capture`,
        pspPaymentId: payment.provider_payment_id ?? attempt.id,
        amount,
        currency: payment.currency
      }))
    if (result._tag !== "Answered") return yield* providerUnreachable(payment, result._tag === "NoAnswer")
    switch (result.value._tag) {
      case "Refused":
        yield* calls.keepProviderMessage(tenant, attempt.id, result.value.providerMessage)
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
        const keys = yield* IdempotentRequests
        return yield* (yield* Transactions).run(
          Effect.tap(
            records.moveIfStill(tenant, id, "requires_capture", "succeeded", (current) => capturedStep(current, captured).changes),
            () => keys.attach(run, id)
          )
        )
      }
    }
  })

/** POST /v1/payments/{id}/cancel: load → decide (the status) → cancel, the PSP first when it holds money. */
export const cancelPayment = (tenant: Tenant, id: string, _input: CancelPayment, run: Running = noKey) =>
  Effect.gen(function*() {
    const recovered = yield* movedUnderThisKey(tenant, id, run)
    if (Option.isSome(recovered)) return recovered.value
    const payment = yield* (yield* PaymentRecords).load(tenant, id)
    if (!cancelable.includes(payment.status)) return yield* new PaymentStateConflict({ payment, action: "cancel" })
    return yield* cancelNow(tenant, payment, null, run)
  })
