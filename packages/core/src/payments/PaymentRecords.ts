import { Effect } from "effect"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"
import { countFinishedPayment } from "../observability/ProviderMetrics.js"
import { Payment, type PaymentStatus } from "./Payment.js"
import { PaymentNotFound } from "./PaymentErrors.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { PaymentStateMachine } from "./PaymentStateMachine.js"

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
