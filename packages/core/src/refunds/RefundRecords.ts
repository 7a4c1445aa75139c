import { EventLog } from "../events/EventLog.js"
import { Context, Effect, Layer } from "effect"
import { type Lifecycle, makeLifecycle } from "../lifecycle/Lifecycle.js"
import { Refund, type RefundStatus } from "./Refund.js"
import { RefundNotFound } from "./RefundErrors.js"
import { RefundsRepository } from "./RefundsRepository.js"
import { RefundStateMachine } from "./RefundStateMachine.js"

/** Where a refund's status changes: its lifecycle over the refunds repository. */
export class RefundRecords extends Context.Tag("core/RefundRecords")<
  RefundRecords,
  Lifecycle<RefundStatus, Refund, RefundNotFound>
>() {
  static readonly layer = Layer.effect(
    RefundRecords,
    Effect.flatMap(RefundsRepository, (store) =>
      makeLifecycle({
        machine: RefundStateMachine,
        store,
        make: (fields) => new Refund(fields),
        event: (type, refund) => Effect.succeed({ type, object: refund }),
        notFound: (id) => new RefundNotFound({ id })
      }))
  ).pipe(Layer.provide(EventLog.layer))
}
