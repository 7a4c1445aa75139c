import { Effect } from "effect"
import { Refund, type RefundStatus } from "../../domain/refunds/Refund.js"
import { RefundNotFound } from "../../domain/refunds/RefundErrors.js"
import { RefundStateMachine } from "../../domain/refunds/RefundStateMachine.js"
import { RefundsRepository } from "../../ports/RefundsRepository.js"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"

/** Where a refund's status changes: its lifecycle over the refunds repository. */
export class RefundRecords extends LifecycleTag("core/RefundRecords")<RefundRecords, RefundStatus, Refund, RefundNotFound>() {
  static readonly layer = lifecycleLayer(RefundRecords, RefundsRepository, {
    machine: RefundStateMachine,
    make: (fields) => new Refund(fields),
    event: (type, refund) => Effect.succeed({ type, object: refund }),
    notFound: (id) => new RefundNotFound({ id })
  })
}
