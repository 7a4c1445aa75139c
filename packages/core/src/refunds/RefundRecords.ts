import { Effect } from "effect"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"
import { Refund, type RefundStatus } from "./Refund.js"
import { RefundNotFound } from "./RefundErrors.js"
import { RefundsRepository } from "./RefundsRepository.js"
import { RefundStateMachine } from "./RefundStateMachine.js"

/** Where a refund's status changes: its lifecycle over the refunds repository. */
export class RefundRecords extends LifecycleTag("core/RefundRecords")<RefundRecords, RefundStatus, Refund, RefundNotFound>() {
  static readonly layer = lifecycleLayer(RefundRecords, RefundsRepository, {
    machine: RefundStateMachine,
    make: (fields) => new Refund(fields),
    event: (type, refund) => Effect.succeed({ type, object: refund }),
    notFound: (id) => new RefundNotFound({ id })
  })
}
