import { EventLog } from "../events/EventLog.js"
import { Context, Effect, Layer } from "effect"
import { type Lifecycle, makeLifecycle } from "../lifecycle/Lifecycle.js"
import { Payment, type PaymentStatus } from "./Payment.js"
import { PaymentNotFound } from "./PaymentErrors.js"
import { PaymentsRepository } from "./PaymentsRepository.js"
import { PaymentStateMachine } from "./PaymentStateMachine.js"

/** Where a payment's status changes: its lifecycle over the payments repository. */
export class PaymentRecords extends Context.Tag("core/PaymentRecords")<
  PaymentRecords,
  Lifecycle<PaymentStatus, Payment, PaymentNotFound>
>() {
  static readonly layer = Layer.effect(
    PaymentRecords,
    Effect.flatMap(PaymentsRepository, (store) =>
      makeLifecycle({
        machine: PaymentStateMachine,
        store,
        // Not validated again here: made of a validated payment and checked changes, and validated
        // in full when the store encodes it to write it.
        make: (fields) => new Payment(fields, true),
        event: (type, payment) => Effect.succeed({ type, object: payment }),
        notFound: (id) => new PaymentNotFound({ id })
      }))
  ).pipe(Layer.provide(EventLog.layer))
}
