import { Effect } from "effect"
import { Payment, type PaymentStatus } from "../../domain/payments/Payment.js"
import { PaymentNotFound } from "../../domain/payments/PaymentErrors.js"
import { PaymentStateMachine } from "../../domain/payments/PaymentStateMachine.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"
import { countFinishedPayment } from "../observability/ProviderMetrics.js"

/** Where a payment's status changes: its lifecycle over the payments repository. */
export class PaymentRecords extends LifecycleTag("core/PaymentRecords")<PaymentRecords, PaymentStatus, Payment, PaymentNotFound>() {
  static readonly layer = lifecycleLayer(PaymentRecords, PaymentsRepository, {
    machine: PaymentStateMachine,
    // Not validated again here: made of a validated payment and checked changes, and validated
    // in full when the store encodes it to write it.
    make: (fields) => new Payment(fields, true),
    event: (type, payment) => Effect.succeed({ type, object: payment }),
    notFound: (id) => new PaymentNotFound({ id }),
    entered: countFinishedPayment
  })
}
